import { z } from 'zod';
import type { McpAccess } from '../adapters/turn-options.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';

/**
 * A run as a worker gets it: the record the bridge decided (task, prompt, policy, CLI,
 * directory, limits), and the run's own access to the bridge's tools. Nothing else of the
 * bridge's: no bot token, no other secret.
 */
export interface RunJob {
  run: SubagentRunRecord;
  /** The run's secret on the bridge's MCP endpoint, when it gets the bridge's tools. */
  mcp?: Omit<McpAccess, 'configFile'>;
  /** How long its CLI waits for one call of those tools. */
  toolTimeoutMs: number;
}

const record = z
  .object({
    runId: z.string().regex(/^[\w-]{4,64}$/),
    cli: z.string().min(1),
    cwd: z.string().startsWith('/'),
    task: z.string(),
    depth: z.number().int().nonnegative(),
    timeoutSeconds: z.number().positive(),
  })
  .loose();

const runJob = z.object({
  run: record,
  mcp: z.object({ url: z.url(), serverName: z.string().min(1), token: z.string().min(16) }).optional(),
  toolTimeoutMs: z.number().int().positive(),
});

/** The job's data, checked: a worker runs nothing it cannot read for certain. */
export function parseRunJob(data: unknown): RunJob {
  const parsed = runJob.safeParse(data);
  if (!parsed.success)
    throw new Error(`the job is not a run the bridge queued: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  // The rest of the record passes through as the bridge wrote it.
  return parsed.data as unknown as RunJob;
}
