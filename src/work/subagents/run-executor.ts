import type { SteeredMessage } from '../../engine/session/live-input.ts';
import { join } from 'node:path';
import type { Adapter } from '../../engine/adapters/load.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import { AgentSession } from '../../engine/session/session.ts';
import { type SessionConfig } from '../../engine/session/session-config.ts';
import { TurnWatcher } from '../../engine/fallback/work-notes.ts';
import type { FallbackChain } from '../../engine/fallback/chain.ts';
import { runHandover, type RunHandoverParts } from '../../engine/fallback/run-handover.ts';
import { canRunLive } from '../../engine/adapters/live.ts';
import { liveOnlyProtocols } from '../../kernel/protocols/index.ts';
import type { PermissionAnswerer, PermissionRequest } from '../../engine/session/live-cli.ts';
import { LivePool } from '../../engine/session/live-pool.ts';
import type { AgentEvent, PermissionDecision } from '../../kernel/protocols/events.ts';
import { createWorktree, summarizeWorktree } from '../../engine/worktrees/index.ts';
import type { SubagentRunRecord } from './record.ts';
import type { TraceCarrier } from '../../services/telemetry/trace-context.ts';
import type { ExecuteOptions, RunEnding, RunExecution, RunPlaces, RunReports } from './execution.ts';
import { runTurnOptions } from './run-options.ts';
import { subagentPrompt, subagentSystemPrompt } from './system-prompt.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { BatchedOutput } from '../../engine/process/batched-output.ts';
import { agentUser } from '../../engine/process/agent-user.ts';
import { agentWorktrees } from '../../engine/process/agent-space.ts';
import { CostMeter } from '../../engine/usage/cost-meter.ts';
import { CostCap } from '../../engine/usage/cost-cap.ts';
import { PriceTable } from '../../engine/usage/prices.ts';
import { writtenHostRules } from '../../engine/sandbox/host-rules.ts';

/** A background run's output is read this often: a wake-up per line would cost more than the line. */
const RUN_READ_EVERY_MS = 100;

/** Runs' CLIs, their environment and data directory, as the engine has them; what models cost (a run is priced as it works, and stopped at its budget). */
export interface RunExecutorOptions extends Pick<EngineSettings, 'adapters' | 'cliEnv' | 'dataDir'>, Partial<Pick<EngineSettings, 'prices'>> {
  /** How long a stop waits before it kills, how deep runs nest; a run whose CLI shows no progress of the model this long ends (see SilenceWatch). */
  settings: Pick<Settings, 'stopGraceMs' | 'subagents'> & Partial<Pick<Settings, 'silenceSeconds'>>;
  /** The bridge's MCP endpoint for a run: its tools. */
  toolsFor: (run: SubagentRunRecord) => McpAccess | undefined;
  /**
   * How a run started with `--ask` is answered on its CLI's control channel, where the CLI has
   * one (on a worker too): its questions come to the chat as buttons. Absent (scripts, tests),
   * nothing asks: its CLI runs as its mode says.
   */
  permissions?: RunPermissions;
  /** The CLIs a run goes on in when a quota or rate limit stops its own: its chat's chain. */
  fallback?: (run: SubagentRunRecord) => FallbackChain | undefined;
  /** Says a line in the run's chat (which CLI took it over, which worker it continues on). */
  tell?: (run: SubagentRunRecord, line: string) => void;
  /** Runs' CLIs run on workers (BRIDGE_REDIS_URL), each a session placed on one; without, in this process. */
  remote?: RunPlaces;
  log?: Log;
}

/** Decides a permission request of a run's CLI. */
export type RunPermissions = (run: SubagentRunRecord, request: PermissionRequest, turn: Parameters<PermissionAnswerer>[1]) => Promise<PermissionDecision>;

const NO_PRICES = new PriceTable({});

/** A run's CLI on its control channel lives for each turn only: nothing is kept between a run's turns. */
const RUN_TURNS_ONLY = new LivePool({ max: 0, idleMs: 0 });

/**
 * Executes runs, as the registry gives them: each its git worktree when it asked for one, its
 * CLI as an agent session in its directory (kept in this process, or placed on a worker as a
 * chat's is, with `remote`), its raw output line by line to its reports, and its outcome as its
 * ending. The registry keeps limits, queues and records; this only runs what it is given.
 */
export class RunExecutor {
  /** Nobody watches a background run line by line: its output is read in batches. */
  private readonly output = new BatchedOutput(RUN_READ_EVERY_MS);

  constructor(private readonly options: RunExecutorOptions) {}

  /** Starts the run (saved as running), reporting as it goes; stopping it, holding its timeout and messages for it go through the execution. */
  execute(run: SubagentRunRecord, reports: RunReports, options: ExecuteOptions = {}): RunExecution {
    let session: AgentSession | undefined;
    let stopReason: string | undefined;
    let ended = false;
    const inbox: string[] = [];
    const ending = this.runHere(run, reports, inbox, options, (created) => {
      session = created;
      if (stopReason) void created.stop(stopReason);
    })
      // Its session on a worker is over with it.
      .finally(() => this.options.remote?.leave(runKey(run)))
      .finally(() => (ended = true));
    return {
      ending,
      stop: async (reason) => {
        stopReason ??= reason;
        await session?.stop(reason);
      },
      holdTimeout: () => session?.holdTimeout() ?? (() => {}),
      send: (text, id) => {
        if (ended || stopReason) return undefined;
        if (session?.steer(text, id)) return this.options.remote ? { via: 'worker' } : { via: 'live' };
        inbox.push(text);
        return { via: 'next_turn', waiting: inbox.length };
      },
    };
  }

  /** Once its runs have ended. */
  async close(): Promise<void> {
    this.output.close();
  }

  private async runHere(
    run: SubagentRunRecord,
    reports: RunReports,
    inbox: string[],
    { takingUp, trace }: ExecuteOptions,
    started: (session: AgentSession) => void,
  ): Promise<RunEnding> {
    const adapter = this.options.adapters.get(run.cli);
    if (!adapter) return { failed: `the CLI "${run.cli}" is no longer configured` };
    let worktree = run.worktree;
    if (run.isolate && !worktree) {
      try {
        worktree = await createWorktree({
          dir: run.cwd,
          worktreesDir: worktreesDir(this.options.dataDir),
          runId: run.runId,
          label: run.label,
        });
      } catch (error) {
        return { failed: `could not make its git worktree: ${(error as Error).message}` };
      }
      await reports.onWorktree(worktree);
    }
    await this.output.ready();
    let watcher = new TurnWatcher();
    let named = run.childSessionId !== undefined;
    const moved = (to: string, line: string) => {
      // The CLI it goes on in names a session of its own: that is the one a restart resumes.
      named = false;
      reports.onHandover?.(to);
      this.options.tell?.(run, line);
    };
    const session = this.sessionFor({ ...run, worktree }, adapter, reports, { watcher: () => watcher, moved }, trace);
    let steps = 0;
    const meter = new CostMeter(this.options.prices ?? NO_PRICES, run.cli, adapter.protocol, run.model);
    const cap = new CostCap(meter, run.budget?.usd, () => void session.stop(`it reached its budget of $${run.budget!.usd}`));
    const handlers = {
      timeoutMs: run.timeoutSeconds * 1000,
      ...(this.options.settings.silenceSeconds ? { silenceMs: this.options.settings.silenceSeconds * 1000 } : {}),
      onLine: (line: string) => reports.onLine(line),
      // Messages its CLI could not take while it worked after all: its next turn, as below.
      onUnsteered: (messages: SteeredMessage[]) => inbox.push(...messages.map((m) => m.text)),
      onStart: () => (watcher = new TurnWatcher()),
      onEvent: (event: AgentEvent) => {
        watcher.observe(event);
        reports.onEvent?.(event);
        if (event.type === 'tool_start') {
          steps++;
          reports.onToolCall(event.name, event.input);
        }
        if (event.type === 'started' && !named) {
          named = true;
          reports.onSession(event.sessionId);
        }
        cap.observe(event);
      },
    };
    // Each of its turns is known by its id: a bridge restarted meanwhile follows the one at work on its worker.
    const turn = session.send(subagentPrompt(run), { ...handlers, turnId: run.runId, takingUp });
    started(session);
    let outcome = await turn;
    // Messages its CLI could not take while it worked (it cannot read them, or was finishing):
    // its next turn, in the same CLI session. Its cost is the turns' together (each is a
    // process of its own).
    while (outcome.status === 'completed' && inbox.length && cap.stoppedFor === undefined)
      outcome = await session.send(inbox.splice(0).join('\n\n'), { ...handlers, turnId: run.runId });
    // What the CLI said it cost, or (codex) what its tokens cost at the table's prices.
    if (meter.priced && outcome.result) outcome = { ...outcome, result: { ...outcome.result, costUsd: meter.usd } };
    const summary = worktree ? await summarizeWorktree(worktree).catch(() => undefined) : undefined;
    return {
      outcome,
      steps,
      ...(worktree ? { worktree: { ...worktree, ...(summary ? { summary } : {}) } } : {}),
      ...(cap.stoppedFor !== undefined ? { stoppedForCost: { usd: cap.stoppedFor } } : {}),
    };
  }

  /** A run that asks, on a CLI with a control channel, in the bridge that can answer it there; a run of a CLI with no one-shot runs (ACP) too. */
  private asksOnControl(run: SubagentRunRecord, adapter: Adapter): boolean {
    if (!this.options.permissions || !canRunLive(adapter)) return false;
    return liveOnlyProtocols.has(adapter.protocol) || (run.policy?.approvals === true && !run.policy.readOnly);
  }

  private sessionFor(
    run: SubagentRunRecord,
    adapter: Adapter,
    reports: RunReports,
    handover: Pick<RunHandoverParts, 'watcher' | 'moved'>,
    trace?: TraceCarrier,
  ): AgentSession {
    const { remote, permissions } = this.options;
    const onPermission: SessionConfig['onPermission'] = permissions && ((request, turn) => permissions(run, request, turn));
    const mcp = this.options.toolsFor(run);
    const netAllow = writtenHostRules(run.netAllow);
    const systemPrompt = subagentSystemPrompt(run, mcp !== undefined && run.depth < this.options.settings.subagents.maxDepth);
    const config: SessionConfig = {
      adapter,
      cwd: run.worktree?.workdir ?? run.cwd,
      // Taken up after a restart: its own session continues.
      ...(run.resumes && run.childSessionId ? { resumeId: run.childSessionId } : {}),
      env: { ...this.options.cliEnv, JSONL_BRIDGE_RUN_ID: run.runId },
      options: {
        ...runTurnOptions(run),
        ...(adapter.options.systemPrompt ? { systemPrompt: run.agentPrompt ? `${systemPrompt}\n\n${run.agentPrompt}` : systemPrompt } : {}),
        mcp,
        // Its worktree is the trusted repository's too: trust was decided for the directory it came from.
        trusted: run.trusted,
      },
      ...(run.policy?.readOnly ? { permissions: 'safe' as const } : run.policy?.approvals ? { permissions: 'ask' as const } : {}),
      // On workers, its CLI is kept on one for all its turns, placed as a chat's is: its worker named in its record, its raw
      // lines its log, what it asks answered here. In no pool of this process: its worker bounds its processes.
      ...(remote
        ? {
            onPermission,
            liveProcess: (launch, answer) =>
              remote.process(runKey(run), launch, answer, (line) => this.options.tell?.(run, line), {
                placedOn: (worker) => reports.onWorker(worker),
                lines: true,
                noun: `#${run.number}${run.label ? ` ${run.label}` : ''}`,
                what: `run ${run.runId} (#${run.number})`,
                ...(run.mcpServers ? { mcpServers: Object.keys(run.mcpServers) } : {}),
                trace,
              }),
          }
        : this.asksOnControl(run, adapter)
          ? { live: RUN_TURNS_ONLY, onPermission }
          : {}),
      graceMs: this.options.settings.stopGraceMs,
      log: this.options.log?.child({ run: run.runId }),
      output: this.output,
      // Messages sent to the run reach its CLI while it works, where the CLI reads them.
      liveInput: true,
      // A home of its own, kept while it may resume; read-only runs see their directory read-only.
      // Its chat's /net hosts as they were at its spawn (on a worker too: they go in its session's launch).
      walls: {
        home: `run-${run.runId}`,
        readOnly: run.policy?.readOnly === true,
        egress: { allow: () => netAllow, onBlocked: (host, why) => reports.onBlocked?.(host, why) },
      },
    };
    const chain = this.options.fallback?.(run);
    if (chain) config.handover = runHandover(run, config, { adapters: this.options.adapters, chain, ...handover });
    return new AgentSession(config);
  }
}

/** What a run is known by on the workers. */
function runKey(run: Pick<SubagentRunRecord, 'runId'>): string {
  return `run:${run.runId}`;
}

/** Runs' worktrees: the agent user's own folder when agents run as one (the data directory is out of its reach), else in the data directory. */
function worktreesDir(dataDir: string): string {
  const user = agentUser();
  return user ? agentWorktrees(user) : join(dataDir, 'worktrees');
}
