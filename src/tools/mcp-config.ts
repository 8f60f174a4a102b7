import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter } from '../adapters/load.ts';
import type { McpAccess } from '../adapters/turn-options.ts';
import type { McpServerConfig } from '../agents/mcp-servers.ts';

/**
 * The access a CLI gets to the bridge's tools, with the config file it reads them from when
 * it reads one (Claude Code's --mcp-config): 0600, in `dir`. `timeoutMs` is how long the CLI
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const configFile = join(dir, `${name.replace(/[^\w-]/g, '_')}.json`);
  const server = { type: 'http', url: access.url, headers: { Authorization: `Bearer ${access.token}` }, timeout: timeoutMs };
  writeFileSync(configFile, JSON.stringify({ mcpServers: { ...others, [access.serverName]: server } }, null, 2), { mode: 0o600 });
  return { ...access, configFile };
}
