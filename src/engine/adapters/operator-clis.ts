import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, describeIssues } from '../../kernel/errors/config-error.ts';
import { commandOverride, parseJson, type Adapter } from './load.ts';
import { adapterManifestSchema } from './manifest.ts';

/** How the ACP wire says a session could not be loaded (refused, or not offered): the session starts afresh. */
export const ACP_UNKNOWN_SESSION = 'acp: could not load the session';

/** The operator's own ACP agents, in the data directory: one entry each, no code. */
export const OPERATOR_CLIS_FILE = 'clis.json';

const entrySchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable'), z.string()).default({}),
    description: z.string().optional(),
    /** How long it has to open its session before its turns fail (a slow starter's more than the default 30 s). */
    openTimeoutSeconds: z.number().positive().max(600).optional(),
    /** How it runs in walls, as a shipped manifest's `walls` (its `modelApi`: the key the credential proxy holds). */
    walls: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * The agents of `BRIDGE_DATA_DIR/clis.json` (`{"<id>": {"command", "args", "env"}}`), each a
 * CLI driven over ACP like a shipped one: its command run with its args (the agent's own ACP
 * flag among them) and env, live in every chat. None without the file; a bad entry, or one
 * whose id a shipped CLI has, stops the start in one line naming it.
 */
export async function loadOperatorClis(dataDir: string, shipped: ReadonlyMap<string, Adapter>, env: NodeJS.ProcessEnv): Promise<Adapter[]> {
  const path = join(dataDir, OPERATOR_CLIS_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  const json = parseJson(text, path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(`${path}: expected an object of agents by id`);
  return Object.entries(json).map(([id, raw]) => {
    if (shipped.has(id)) throw new ConfigError(`${path}: "${id}": a CLI the bridge ships has that id; choose another`);
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) throw new ConfigError(`${path}: "${id}": ${describeIssues(entry.error.issues)}`);
    const { command, args, env: agentEnv, description, openTimeoutSeconds, walls } = entry.data;
    const manifest = adapterManifestSchema.safeParse({
      name: id,
      description: description ?? `${id} (an ACP agent of ${OPERATOR_CLIS_FILE})`,
      command,
      protocol: 'acp',
      args: [],
      live: { protocol: 'acp', args, ...(openTimeoutSeconds ? { openTimeoutSeconds } : {}) },
      // Its directory is its session's, and the bridge's MCP server is offered in `session/new`.
      options: { cwd: [], mcp: [] },
      // Its wire answers by the chat's mode: `safe` refuses what is not reading, so no flag is needed.
      permissions: { safe: [] },
      unknownSession: ACP_UNKNOWN_SESSION,
      env: agentEnv,
      ...(walls ? { walls } : {}),
    });
    if (!manifest.success) throw new ConfigError(`${path}: "${id}": ${describeIssues(manifest.error.issues)}`);
    return { ...manifest.data, resolvedCommand: commandOverride(id, env) ?? command, file: path };
  });
}
