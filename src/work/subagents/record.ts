import type { AuditEvent } from '../../kernel/audit/audit-log.ts';
import type { ToolPolicy } from '../../kernel/policy/tool-policy.ts';
import type { PermissionMode } from '../../kernel/policy/permission-mode.ts';
import type { Worktree, WorktreeSummary } from '../../engine/worktrees/index.ts';
import type { Usage } from '../../kernel/protocols/events.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import { mayResume, type Resumable } from '../../kernel/policy/resume-attempts.ts';
import type { Delivery } from './delivery.ts';
import type { CliAgents } from '../../engine/agents/cli-agents.ts';
import type { McpServerConfig } from '../../engine/agents/mcp-servers.ts';
import type { TraceCarrier } from '../../services/telemetry/trace-context.ts';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'stopped' | 'timed_out' | 'interrupted';

/** Who asked for the run: a person with /spawn, a main agent through the spawn tool, or a client of the API (named by its token). */
export type Requester =
  | { kind: 'user'; userId: string; name?: string }
  /**
   * `runId`: the run whose agent started it (none: the chat's main session). `for`: the person
   * (`<transport>:<id>`) whose turn or run the agent was working for, whose budget it spends.
   */
  | { kind: 'agent'; chatKey: string; sessionId?: string; runId?: string; for?: string }
  | { kind: 'api'; client: string }
  | { kind: 'hook'; hook: string };

/** What a spawn decides of a run (the Spawner resolves it; a SpawnRequest carries it): the first part of its record. */
export interface RunSpec {
  /** The main session's CLI session id at spawn time. */
  requesterSessionId?: string;
  requester: Requester;
  cli: string;
  model?: string;
  agent?: string;
  task: string;
  /**
   * The message whose command made it (`<chat>#<message id>`), saved in its first write: a
   * command a restart cut short finds it, and is not carried out again.
   */
  fromMessage?: string;
  /** The message a /spawn replied to, given to the run as context. */
  context?: string;
  label?: string;
  cwd: string;
  /** Tool lists and approvals for this run; none means the CLI's own defaults (bypass). */
  policy?: ToolPolicy;
  /** The chat's permission mode that binds the run (`safe`: read-only; `ask`: the chat approves). */
  chatMode?: PermissionMode;
  maxTurns?: number;
  /**
   * The most the run may cost, in US dollars (`--budget`, its agent's or its webhook's
   * `budget`): priced as it works, it is stopped through its CLI once it reaches this.
   * `askedUsd`: the budget asked for, when the person's day left less (this is then their day's rest).
   */
  budget?: { usd: number; askedUsd?: number };
  /** A user-defined agent's system prompt, given on top of the subagent one. */
  agentPrompt?: string;
  /** The agents its CLI's own Task tool may delegate to, as they were when it was spawned. */
  agents?: CliAgents;
  /** MCP servers of the operator's its agent asked for, added to its MCP configuration. */
  mcpServers?: Record<string, McpServerConfig>;
  /** The orchestration this run is a step of: its result is announced with the whole plan, not alone. */
  orchestration?: { id: string; step: string };
  /**
   * The hosts its chat's `/net` allowed when it was spawned: its sandbox reaches them besides its
   * model API and BRIDGE_SANDBOX_ALLOW, on the bridge or on a worker (its session's launch carries them, sealed).
   */
  netAllow?: string[];
  /** The owner trusted the directory it was spawned from (/trust) and it may do more than read: its CLI may use what the repository ships. */
  trusted?: boolean;
  /** Asked to run in its own git worktree (--worktree); made when the run starts. */
  isolate?: boolean;
  /** 1 for a run spawned by a main session or a user; deeper for runs spawned by runs. */
  depth: number;
  timeoutSeconds: number;
}

/**
 * One subagent run, after the seed's SubagentRunRecord: persisted on every transition,
 * before the transition is acted on, so a restart knows exactly what was going on.
 */
export interface SubagentRunRecord extends RunSpec, Resumable {
  runId: string;
  /** #n within its chat, for humans: `/subagents stop 3`. */
  number: number;
  /** The chat it was started from, where it is announced. */
  chat: ChatRef;
  /** `chatKey(chat)`: what the chat's runs are found and numbered by. */
  requesterKey: string;
  /** Its trace (W3C Trace Context), once it ended traced: its announcement's delivery joins it. */
  trace?: TraceCarrier;
  /** The messages (`<chat>#<message id>`) of `/subagents send` handed to it, newest last. */
  heardFrom?: string[];
  /** Stopped because it reached its budget: what it had cost then. */
  stoppedForCost?: { usd: number };
  worktree?: Worktree & {
    summary?: WorktreeSummary;
    /** Its worktree and branch are gone: removed after retention, merged, or discarded. */
    removed?: boolean;
    /** Why it was kept after retention. */
    kept?: string;
    /** Merged into the checkout it came from (/merge): where, as which commit, by whom. */
    merged?: { into: string; commit: string; by: string; at: number };
    /** Discarded (/discard), by whom. */
    discarded?: { by: string; at: number };
  };
  status: RunStatus;
  createdAt: number;
  endedAt?: number;
  /** The worker executing it, when runs go through a queue (`host` or BRIDGE_WORKER_NAME). */
  worker?: string;
  /** The CLI's own session id, once it names one. */
  childSessionId?: string;
  pid?: number;
  result?: string;
  error?: string;
  stoppedBy?: string;
  usage?: Usage;
  costUsd?: number;
  turns?: number;
  steps?: number;
  logFile: string;
  /** How many audit entries of each kind the run had, kept on the record when it ends. */
  auditCounts?: Partial<Record<AuditEvent, number>>;
  delivery: Delivery;
  /** When an ended, announced run leaves the live list for the archive. */
  archiveAfter?: number;
}

export function isActive(run: Pick<SubagentRunRecord, 'status'>): boolean {
  return run.status === 'queued' || run.status === 'running';
}

export function displayName(run: Pick<SubagentRunRecord, 'label' | 'agent' | 'number'>): string {
  return run.label ?? (run.agent ? `${run.agent} agent` : `Subagent #${run.number}`);
}

/** Runtime so far, or in total once ended. */
export function runtimeMs(run: Pick<SubagentRunRecord, 'startedAt' | 'endedAt'>, now = Date.now()): number {
  return run.startedAt ? (run.endedAt ?? now) - run.startedAt : 0;
}

/** `3`, `#3`, a run id, or an id prefix of at least 4 characters, among one chat's runs. */
export function findRun<R extends Pick<SubagentRunRecord, 'number' | 'runId'>>(runs: readonly R[], ref: string): R | undefined {
  const wanted = ref.trim().replace(/^#/, '');
  if (/^\d+$/.test(wanted)) return runs.find((r) => r.number === Number(wanted));
  const exact = runs.find((r) => r.runId === wanted);
  if (exact) return exact;
  const prefixed = wanted.length >= 4 ? runs.filter((r) => r.runId.startsWith(wanted)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Who asked, in the audit log. */
export function requesterName(requester: Requester): string {
  if (requester.kind === 'user') return requester.name ?? String(requester.userId);
  if (requester.kind === 'api') return `API client ${requester.client}`;
  return requester.kind === 'hook' ? `webhook ${requester.hook}` : 'the agent';
}

/** Whether a run a restart cut short in this process is taken up (`resume`: BRIDGE_RESUME_INTERRUPTED), by the rule a turn's is. */
export function resumable(run: SubagentRunRecord, resume: boolean): boolean {
  return resume && mayResume(run, run.childSessionId !== undefined);
}

/**
 * The person a run's cost is for (`<transport>:<id>`): who started it, or whose turn or run
 * the agent that started it was working for. None: work nobody typed (a webhook's, the API's).
 */
export function paidBy(run: Pick<SubagentRunRecord, 'requester' | 'chat'>): string | undefined {
  return startedBy(run) ?? (run.requester.kind === 'agent' ? run.requester.for : undefined);
}

/** The person who started a run (`<transport>:<id>`), when a person did. */
export function startedBy(run: Pick<SubagentRunRecord, 'requester' | 'chat'>): string | undefined {
  return run.requester.kind === 'user' ? `${run.chat.transport}:${run.requester.userId}` : undefined;
}
