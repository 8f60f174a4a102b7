import type { AgentLibrary } from '../engine/agents/library.ts';
import type { ApprovalBroker } from '../work/approvals/approval-broker.ts';
import type { BridgeConfig } from './config.ts';
import type { Secrets } from '../kernel/log/secrets.ts';
import { TOOLS } from '../work/tools/index.ts';
import { McpEndpoint } from '../work/tools/mcp-endpoint.ts';
import { SessionTools } from '../work/tools/session-tools.ts';
import type { ToolDeps } from '../work/tools/tool.ts';

/**
 * The agents' own tools (spawn, schedule, send a file, ask for approval) over the bridge's MCP
 * endpoint (the one the CLIs call them on), each session's and run's secret for it (`sessionTools`),
 * and `provide`: what the tools work with, given once it is built (the tools start runs, and runs
 * are given the tools).
 */
export async function agentTools(parts: {
  config: BridgeConfig;
  approvals: Pick<ApprovalBroker, 'forget'>;
  agents: AgentLibrary;
  secrets: Secrets | undefined;
}) {
  const { config, approvals, agents } = parts;
  const { settings } = config;
  // The one forward reference: read at each call, set by `provide` before the first.
  let deps: ToolDeps | undefined;
  const endpoint = await McpEndpoint.listen({ tools: TOOLS, deps: () => deps! }, config.mcp, parts.secrets);
  // How long one tool call may take: an approval's whole wait, and a minute.
  const toolTimeoutMs = (settings.approvalTimeoutSeconds + 60) * 1000;
  // A secret revoked is a run ended or a session replaced: its questions and allowances go too.
  const sessionTools = new SessionTools({
    endpoint,
    config,
    maxDepth: settings.subagents.maxDepth,
    toolTimeoutMs,
    onRevoked: (name) => approvals.forget(name),
    agents,
  });
  return { endpoint, sessionTools, toolTimeoutMs, provide: (given: ToolDeps) => void (deps = given) };
}
