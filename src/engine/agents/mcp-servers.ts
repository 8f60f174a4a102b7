import { join } from 'node:path';
import { z } from 'zod';
import { readBounded } from './safe-fs.ts';
import type { AgentProblem } from './types.ts';

/** One MCP server as Claude Code's `mcpServers` writes it: a command to start, or a URL to reach. */
const serverSchema = z.union([
  z.looseObject({ command: z.string().min(1), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }),
  z.looseObject({ type: z.enum(['http', 'sse']), url: z.url(), headers: z.record(z.string(), z.string()).optional() }),
]);
const fileSchema = z.strictObject({ mcpServers: z.record(z.string().regex(/^[\w-]+$/, 'a server name: letters, digits, "_" or "-"'), serverSchema) });

export type McpServerConfig = z.infer<typeof serverSchema>;

/** `<BRIDGE_DATA_DIR>/mcp-servers.json`: the MCP servers agents may name. The operator's alone: no project can add one. */
export function mcpServersFile(dataDir: string): string {
  return join(dataDir, 'mcp-servers.json');
}

/** None configured is no problem; a file that does not parse is one, and then no server is offered. */
export async function loadMcpServers(dataDir: string): Promise<{ servers: Record<string, McpServerConfig>; problems: AgentProblem[] }> {
  const file = mcpServersFile(dataDir);
  const read = await readBounded(file);
  if (read.status === 'missing') return { servers: {}, problems: [] };
  if (read.status === 'failed') return { servers: {}, problems: [{ file, message: read.message }] };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (error) {
    return { servers: {}, problems: [{ file, message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { servers: {}, problems: [{ file, field: issue.path.join('.'), message: issue.message }] };
  }
  return { servers: parsed.data.mcpServers, problems: [] };
}
