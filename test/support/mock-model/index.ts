// Public surface of the mock model API used by the real-CLI tests.
export { startMockModel, type MockModel, type MockModelOptions } from './server.ts';
export {
  DEFAULT_TEXT,
  always,
  createNamedFile,
  defaultScript,
  echoScript,
  replyText,
  replyTool,
  shellToolCall,
  toolThenText,
  type ToolThenTextOptions,
} from './scripts.ts';
export type { ModelApi, ModelRequest, RecordedRequest, Reply, ReplyBlock, ReplyError, Script, ToolCall, ToolResultView } from './types.ts';
export { startMockMcpServer, type MockMcpCall, type MockMcpServer, type MockMcpTool } from './mcp-server.ts';
export { claudeMcpConfig, codexMcpArgs, writeDroidMcpConfig } from './mcp-config.ts';
export { anthropicNoCredit, anthropicRateLimit, claudeUsageLimit, codexUsageLimit, openAiInsufficientQuota, openAiRateLimit } from './quota-errors.ts';
