import { z } from 'zod';
import type { McpAccess } from '../adapters/turn-options.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { QueueSigner } from './signing.ts';

/**
 * A run as a worker gets it: the record the bridge decided (task, prompt, policy, CLI,
 * directory, limits), where the bridge's tools are, and the names of the operator's MCP
 * servers it asked for. No credential: the run's secret for the bridge's tools is derived
 * from the queue secret on both sides, and the servers' `env` and `headers` are the worker's
 * own (its `mcp-servers.json`).
 */
export interface RunJob {
  run: Omit<SubagentRunRecord, 'mcpServers'>;
  /** The operator's MCP servers the run's agent named. */
  mcpServers?: string[];
  /** Where the run's CLI reaches the bridge's tools, when it gets them. */
  mcp?: Omit<McpAccess, 'configFile' | 'token'>;
  /** How long its CLI waits for one call of those tools. */
  toolTimeoutMs: number;
}

/**
 * A run is queued once (`attempts: 1`): its attempt is 1. A second take after a stall
 * ends it as interrupted without running it, under the same attempt.
 */
export const RUN_ATTEMPT = 1;

/** The job for a run: what the bridge decided, less any credential. */
export function runJob(run: SubagentRunRecord, mcp: RunJob['mcp'], toolTimeoutMs: number): RunJob {
  const { mcpServers, ...rest } = run;
  return { run: rest, ...(mcpServers ? { mcpServers: Object.keys(mcpServers) } : {}), ...(mcp ? { mcp } : {}), toolTimeoutMs };
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

const runJobSchema = z.object({
  run: record,
  mcpServers: z.array(z.string().regex(/^[\w-]+$/)).optional(),
  mcp: z.object({ url: z.url(), serverName: z.string().min(1) }).optional(),
  toolTimeoutMs: z.number().int().positive(),
});

/** Why a job is not run: it is not signed by the bridge for this run, or does not read as a run. */
export class RefusedJob extends Error {}

/** The job's data, verified and checked: a worker runs nothing the bridge did not sign, nor anything it cannot read for certain. */
export function parseRunJob(signer: QueueSigner, jobId: string | undefined, data: unknown): { job: RunJob; attempt: number } {
  if (!jobId) throw new RefusedJob('the job has no id');
  const attempt = signer.claimedAttempt(data) ?? RUN_ATTEMPT;
  const verified = signer.verify<unknown>(data, { kind: 'job', runId: jobId, attempt });
  if (!verified.ok) throw new RefusedJob(verified.why);
  const parsed = runJobSchema.safeParse(verified.body);
  if (!parsed.success)
    throw new RefusedJob(`the job is not a run the bridge queued: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (parsed.data.run.runId !== jobId) throw new RefusedJob(`the job ${jobId} holds run ${parsed.data.run.runId}`);
  // The rest of the record passes through as the bridge wrote (and signed) it.
  return { job: parsed.data as unknown as RunJob, attempt };
}
