import { join } from 'node:path';
import { writeAgentFile } from '../../engine/process/agent-space.ts';
import type { Adapter } from '../../engine/adapters/load.ts';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import type { McpServerConfig } from '../../engine/agents/mcp-servers.ts';

/**
 * The access a CLI gets to the bridge's tools, with the config file it reads them from when
 * it reads one (Claude Code's --mcp-config): 0600 and the CLI's user's, in `dir` (see
 * agentReadableFolder: never under a project root, where an agent's tools or `send_file` reach). `timeoutMs` is how long the CLI
 * waits for one call, longer than a question may stay open in the chat. `others` are the
 * operator's servers a run's agent asked for, in the same file.
 */
export function mcpAccessFor(
  adapter: Adapter,
  access: Omit<McpAccess, 'configFile'>,
  dir: string,
  name: string,
  timeoutMs: number,
  others: Record<string, McpServerConfig> = {},
): McpAccess {
  if (adapter.mcpConfigFormat !== 'claude-json') return { ...access };
  const configFile = join(dir, `${name.replace(/[^\w-]/g, '_')}.json`);
  const server = { type: 'http', url: access.url, headers: { Authorization: `Bearer ${access.token}` }, timeout: timeoutMs };
  writeAgentFile(configFile, JSON.stringify({ mcpServers: { ...others, [access.serverName]: server } }, null, 2));
  return { ...access, configFile };
}
