import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../kernel/repo-root.ts';
import type { StdioMcp } from '../../kernel/protocols/index.ts';
import { MCP_TOKEN_VARIABLE } from '../adapters/turn-options.ts';

/**
 * The bridge's MCP relay (src/mcp-stdio-relay.ts) as the build makes it: one file with the MCP
 * SDK inside, run by plain Node. The bridge run from src/ offers the built one too: it needs no
 * loader, and in walls it is the one file of the bridge an agent must see (read-only).
 */
export const MCP_RELAY_SCRIPT = join(REPO_ROOT, 'dist', 'server', 'mcp-stdio-relay.js');

/**
 * How an agent that takes no MCP server over http starts the bridge's, over stdio: this Node
 * (in every sandbox, with the installation the bridge runs on) running the relay to `url`, the
 * secret in its environment. Undefined when the relay is not built.
 */
export function mcpOverStdio(mcp: { url: string; token: string }): StdioMcp | undefined {
  if (!existsSync(MCP_RELAY_SCRIPT)) return undefined;
  return { command: process.execPath, args: [MCP_RELAY_SCRIPT, mcp.url], env: { [MCP_TOKEN_VARIABLE]: mcp.token } };
}
