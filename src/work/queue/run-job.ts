import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import type { CliAgents } from '../../engine/agents/cli-agents.ts';
import { loadMcpServers, mcpServersFile, type McpServerConfig } from '../../engine/agents/mcp-servers.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { QueueSigner } from './signing.ts';
import type { RunEnding } from '../subagents/execution.ts';
import { INTERRUPTED } from './endings.ts';
import { takenOver, type Handback } from './handback.ts';
import { TRACEPARENT, type TraceCarrier } from '../../services/telemetry/trace-context.ts';

/**
 * A run as a worker gets it: the record the bridge decided (task, prompt, policy, CLI,
 * directory, limits), where the bridge's tools are, and the names of the operator's MCP
 * servers it asked for. No credential: the run's secret for the bridge's tools comes in its
 * grant, sealed for the worker it is placed on, and the servers' `env` and `headers` are the
 * worker's own (its `mcp-servers.json`).
 */
export interface RunJob {
  /** The record, without the configurations of the operator's MCP servers (its own, and its agents'). */
  run: Omit<SubagentRunRecord, 'mcpServers'>;
  /** The operator's MCP servers the run's agent named. */
  mcpServers?: string[];
  /** The operator's MCP servers each agent its CLI may delegate to names (Claude Code's inline `mcpServers`). */
  agentMcpServers?: Record<string, string[]>;
  /** Where the run's CLI reaches the bridge's tools, when it gets them. */
  mcp?: Omit<McpAccess, 'configFile' | 'token'>;
  /** How long its CLI waits for one call of those tools. */
  toolTimeoutMs: number;
  /** The bridge's span of the run (W3C Trace Context), signed with the rest: the worker's spans join its trace. */
  trace?: TraceCarrier;
}

/**
 * A run is queued once (`attempts: 1`): its job is signed for attempt 1. Each worker that takes
 * it is a placement of its own, numbered from 1 (see RunPlacements).
 */
export const RUN_ATTEMPT = 1;

/** The job for a run: what the bridge decided, less any credential (MCP servers go by name). */
export function runJob(run: SubagentRunRecord, mcp: RunJob['mcp'], toolTimeoutMs: number, trace?: TraceCarrier): RunJob {
  const { mcpServers, agents, ...rest } = run;
  const agentMcpServers: Record<string, string[]> = {};
  const bareAgents: CliAgents = {};
  for (const [slug, { mcpServers: inline, ...agent }] of Object.entries(agents ?? {})) {
    bareAgents[slug] = agent;
    if (inline) agentMcpServers[slug] = inline.flatMap((server) => Object.keys(server));
  }
  return {
    run: { ...rest, ...(agents ? { agents: bareAgents } : {}) },
    ...(mcpServers ? { mcpServers: Object.keys(mcpServers) } : {}),
    ...(Object.keys(agentMcpServers).length ? { agentMcpServers } : {}),
    ...(mcp ? { mcp } : {}),
    toolTimeoutMs,
    ...(trace ? { trace } : {}),
  };
}

/** Every MCP server the job names, its agents' included. */
export function namedServers(job: RunJob): string[] {
  return [...new Set([...(job.mcpServers ?? []), ...Object.values(job.agentMcpServers ?? {}).flat()])];
}

/** The record as the bridge decided it, the servers it names configured as `servers` (the worker's own file) says. */
export function recordWithServers(job: RunJob, servers: Record<string, McpServerConfig>): SubagentRunRecord {
  const configured = (names: string[]) => Object.fromEntries(names.map((name) => [name, servers[name]!]));
  const agents = job.run.agents && {
    ...job.run.agents,
    ...Object.fromEntries(
      Object.entries(job.agentMcpServers ?? {}).map(([slug, names]) => [
        slug,
        { ...job.run.agents![slug]!, mcpServers: names.map((name) => ({ [name]: servers[name]! })) },
      ]),
    ),
  };
  return { ...job.run, ...(agents ? { agents } : {}), ...(job.mcpServers ? { mcpServers: configured(job.mcpServers) } : {}) };
}

const record = z
  .object({
    runId: z.string().regex(/^[\w-]{4,64}$/),
    cli: z.string().min(1),
    cwd: z.string().startsWith('/'),
    task: z.string(),
    depth: z.number().int().nonnegative(),
    timeoutSeconds: z.number().positive(),
    // Its chat's /net hosts: what its sandbox reaches besides the model API and the worker's BRIDGE_SANDBOX_ALLOW.
    netAllow: z.array(z.string().max(300)).max(1000).optional(),
  })
  .loose();

const serverName = z.string().regex(/^[\w-]+$/);

const runJobSchema = z.object({
  run: record,
  mcpServers: z.array(serverName).optional(),
  agentMcpServers: z.record(z.string(), z.array(serverName)).optional(),
  mcp: z.object({ url: z.url(), serverName: z.string().min(1) }).optional(),
  toolTimeoutMs: z.number().int().positive(),
  trace: z.object({ traceparent: z.string().regex(TRACEPARENT), tracestate: z.string().max(512).optional() }).optional(),
});

/** Why a job is not run: it is not signed by the bridge for this run, or does not read as a run. */
export class RefusedJob extends Error {}

/** The job's data as it waits in the queue: signed with the queue secret (its record sealed for the bridge, see RunPlacements); else why it is refused. */
export function checkQueuedJob(admission: QueueSigner, jobId: string | undefined, data: unknown): void {
  if (!jobId) throw new RefusedJob('the job has no id');
  const verified = admission.verify<unknown>(data, { kind: 'job', runId: jobId, attempt: RUN_ATTEMPT });
  if (!verified.ok) throw new RefusedJob(verified.why);
}

/** The job the bridge granted, checked: a worker runs nothing it cannot read for certain. */
export function parseRunJob(jobId: string, body: unknown): RunJob {
  const parsed = runJobSchema.safeParse(body);
  if (!parsed.success)
    throw new RefusedJob(`the job is not a run the bridge queued: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (parsed.data.run.runId !== jobId) throw new RefusedJob(`the job ${jobId} holds run ${parsed.data.run.runId}`);
  // The rest of the record passes through as the bridge wrote (and sealed) it.
  return parsed.data as unknown as RunJob;
}

/** The MCP servers a run names, as this worker's operator configured them in `dataDir` (their `env` and `headers` never travel). */
export async function serversHere(dataDir: string, worker: string, names: string[]): Promise<{ found: Record<string, McpServerConfig> } | { missing: string }> {
  if (!names.length) return { found: {} };
  const file = mcpServersFile(dataDir);
  const { servers, problems } = await loadMcpServers(dataDir);
  const missing = names.filter((name) => !Object.hasOwn(servers, name));
  if (!missing.length) return { found: Object.fromEntries(names.map((name) => [name, servers[name]!])) };
  const why = problems.length ? `; that file has a problem: ${problems.map((p) => `${p.field ? `${p.field}: ` : ''}${p.message}`).join('; ')}` : '';
  return {
    missing: `it names the MCP server${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, which worker ${worker} does not have in ${file}${why}`,
  };
}

/**
 * Whether a run can start, or go on, on this worker (`worker`, its data in `dataDir`): its
 * directory, its worktree and the MCP servers it names are here. The record it runs with, or
 * how it ends instead.
 */
export async function runHere(
  job: RunJob,
  handback: Handback | undefined,
  dataDir: string,
  worker: string,
): Promise<{ run: SubagentRunRecord } | { ending: RunEnding }> {
  if (!existsSync(job.run.cwd)) return { ending: { failed: `its directory ${job.run.cwd} does not exist on worker ${worker}` } };
  if (handback?.worktree && !existsSync(handback.worktree.workdir))
    return {
      ending: {
        interrupted: `${INTERRUPTED}its worker (${handback.from}) was shut down, and its worktree ${handback.worktree.workdir} is not on worker ${worker}`,
      },
    };
  const servers = await serversHere(dataDir, worker, namedServers(job));
  if ('missing' in servers) return { ending: { failed: servers.missing } };
  const run = recordWithServers(job, servers.found);
  return { run: handback ? takenOver(run, handback) : run };
}
