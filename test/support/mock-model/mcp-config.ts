// How each CLI is told about one Streamable HTTP MCP server (measured on claude 2.1.330,
// codex 0.169.0, droid 0.225.2). The tool then reaches the model as:
//   claude `mcp__<server>__<tool>`, codex namespace `mcp__<server>` (flattened here to
//   `mcp__<server>__<tool>`), droid `<server>___<tool>` (three underscores).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** JSON for `claude --mcp-config`; the tool must also be in `--allowedTools` in -p mode. */
export function claudeMcpConfig(server: string, url: string): string {
  return JSON.stringify({ mcpServers: { [server]: { type: 'http', url } } });
}

/** `codex exec` options; without the approval override codex refuses MCP calls under approval policy "never". */
export function codexMcpArgs(server: string, url: string): string[] {
  return ['-c', `mcp_servers.${server}.url=${JSON.stringify(url)}`, '-c', `mcp_servers.${server}.default_tools_approval_mode="approve"`];
}

/** What `droid mcp add <server> <url> --type http` writes, without spending a droid start-up on it. */
export async function writeDroidMcpConfig(home: string, server: string, url: string): Promise<void> {
  const dir = join(home, '.factory');
  await mkdir(dir, { recursive: true });
  const config = { mcpServers: { [server]: { type: 'http', url, disabled: false } } };
  await writeFile(join(dir, 'mcp.json'), JSON.stringify(config, null, 2));
}
