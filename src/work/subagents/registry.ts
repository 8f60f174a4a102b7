import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { nanoid } from 'nanoid';
import { chatKey } from '../../kernel/ports/chat.ts';
import type { Settings, SubagentSettings } from '../../kernel/settings/bridge-manifest.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { RestartSettings } from '../restart-settings.ts';
import { findRun, isActive, requesterName, resumable, runtimeMs, startedBy, type RunStatus, type SubagentRunRecord } from './record.ts';
import { endingOf } from './run-outcome.ts';
import type { MessageDelivery, RunEnding, RunExecution, RunReports } from './execution.ts';
import type { RunExecutor, RunExecutorOptions } from './run-executor.ts';
import { RunLog } from './run-log.ts';
import { RunSlots, type Live } from './run-slots.ts';
import type { RunStore } from './run-store.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { runRecordFor, type Refusal, type SpawnRequest, type SpawnResult } from './spawn-request.ts';
import { delay } from '../../kernel/concurrency/delay.ts';
import { AgentSpans } from '../../services/telemetry/traced-agent.ts';
import { carrierOf } from '../../services/telemetry/trace-context.ts';
import { runReports, tracedRun, traceEnding, type ReportParts } from './run-reports.ts';

/** What the registry is built on: where its runs report (ReportParts), their executor, limits and listeners. */
export interface RegistryOptions extends ReportParts, Pick<RunExecutorOptions, 'remote'> {
  executor: RunExecutor;
  /** Runs' CLIs (whose models each runs, for its spans), the directory their logs live under, their limits, and whether those a restart cut short here are taken up again (RestartSettings). */
  config: Pick<EngineSettings, 'adapters' | 'dataDir'> & { restart: Pick<RestartSettings, 'resume'>; settings: Pick<Settings, 'subagents'> };
  /** Called once a run has ended and its record is on disk (the outbox takes it from there). */
  onEnded: (run: SubagentRunRecord) => void;
  /** Called as each run starts (saved as running, its CLI about to start). */
  onStarted?: (run: SubagentRunRecord) => void;
}

/** How many `/subagents send` messages a run remembers being handed: far more than a restart could cut short. */
const HEARD_KEPT = 20;

/**
 * Every subagent run's state machine, within the limits and queues of its RunSlots; each
 * running one is executed by the executor and followed here. Every transition is saved before
 * it is acted on: a crash at any point leaves a record that says what to recover.
 */
export class SubagentRegistry {
  /** Where every run's record is kept, and where its transitions are told: used at nearly every step. */
  private readonly store: RunStore;
  private readonly log: Log;
  private readonly slots: RunSlots;
  private readonly logsDir: string;
  private closed = false;
  /** Restarting: no queued run starts (see drain). */
  private holding = false;

  constructor(private readonly options: RegistryOptions) {
    this.store = options.store;
    this.log = options.log;
    this.slots = new RunSlots(options.store, options.config.settings.subagents);
    this.logsDir = join(options.config.dataDir, 'runs');
    options.remote?.onAvailable(() => this.schedule());
  }

  get limits(): SubagentSettings {
    return this.slots.limits;
  }

  /** Queues the run (or starts it, when its chat and the machine have room); refused past the queue's limit. */
  async spawn(request: SpawnRequest): Promise<SpawnResult> {
    const unavailable = this.options.remote?.unavailable();
    if (unavailable)
      return { ok: false, error: `Subagents cannot start now: ${unavailable}. Nothing was queued; try again once it is back (/status shows it).` };
    const key = chatKey(request.address);
    const full = this.slots.refusal(key);
    if (full) return { ok: false, refusal: 'limit', error: full };

    const runId = nanoid(10);
    await mkdir(this.logsDir, { recursive: true, mode: 0o700 });
    // Decided after the last wait, in step with the save below: a spawn beside it sees this run.
    const live = this.starting() ? this.slots.claimNew(key, runId) : undefined;
    const run = runRecordFor(request, {
      runId,
      number: this.store.nextNumber(key),
      logFile: join(this.logsDir, `${runId}.jsonl`),
      startsNow: live !== undefined,
      at: Date.now(),
      announceTo: this.limits.announceTo,
    });
    const saved = this.store.save(run);
    if (live) {
      // Its slot is taken: a stop or a shutdown waits for it from now on.
      live.done = saved.then(
        () => this.execute(run, live).catch((error) => this.log.error({ run: runId, chat: key, err: error }, 'the run failed to run')),
        () => this.unclaim(run),
      );
    }
    await saved;
    const by = requesterName(request.requester);
    void this.options.audit.record({ event: 'spawn', runId, chat: key, by, input: run.task, ...(run.policy ? { detail: JSON.stringify(run.policy) } : {}) });
    if (!live) this.schedule();
    const latest = this.store.get(runId)!;
    return { ok: true, run: latest, queuePosition: latest.status === 'queued' ? this.queuePosition(latest) : 0 };
  }

  get(runId: string): SubagentRunRecord | undefined {
    return this.store.get(runId);
  }

  /** This chat's live runs (active and recently ended), newest first. */
  forChat(key: string): SubagentRunRecord[] {
    return this.store.forChat(key);
  }

  /** The run the command of this message (`<chat>#<message id>`) made, if it made one. */
  madeFrom(key: string): SubagentRunRecord | undefined {
    return this.store.all().find((run) => run.fromMessage === key);
  }

  /** The run a `/subagents send` of this message (`<chat>#<message id>`) was handed to, if it got that far. */
  heard(key: string): SubagentRunRecord | undefined {
    return this.store.all().find((run) => run.heardFrom?.includes(key));
  }

  /** `3`, `#3`, a run id, or an id prefix of at least 4 characters, within one chat. */
  find(key: string, ref: string): SubagentRunRecord | undefined {
    return findRun(this.forChat(key), ref);
  }

  queuePosition(run: SubagentRunRecord): number {
    return this.slots.queuePosition(run);
  }

  /** Stops a queued or running run. Resolves once it has ended. False if it was not active. */
  async stop(runId: string, by: string): Promise<boolean> {
    const run = this.store.get(runId);
    if (!run || !isActive(run)) return false;
    void this.options.audit.record({ event: 'stop', runId, chat: run.requesterKey, by });
    if (run.status === 'queued') {
      await this.end(run, { status: 'stopped', error: `stopped by ${by} before it started`, stoppedBy: by });
      return true;
    }
    await this.store.save({ ...run, stoppedBy: by });
    const live = this.slots.get(runId);
    await live?.execution?.stop(`stopped by ${by}`);
    await live?.done;
    return true;
  }

  /** Stops every active run of a chat (`onlyOf`: only those this person, `<transport>:<id>`, started); returns how many. */
  async stopAll(key: string, by: string, onlyOf?: string): Promise<number> {
    const active = this.forChat(key).filter((run) => isActive(run) && (onlyOf === undefined || startedBy(run) === onlyOf));
    // Queued ones first, so none of them starts in a slot a stopping run frees.
    active.sort((a, b) => (a.status === 'queued' ? -1 : 0) - (b.status === 'queued' ? -1 : 0));
    let stopped = 0;
    for (const run of active) if (await this.stop(run.runId, by)) stopped++;
    return stopped;
  }

  /**
   * After a restart: a run that was running is followed again where it still runs (on a
   * worker), and interrupted where its process went with the old bridge; a queued one waits
   * its turn again. Ended ones keep their delivery state.
   */
  async recover(): Promise<{ interrupted: number; requeued: number }> {
    let interrupted = 0;
    for (const run of this.store.all()) {
      if (run.status !== 'running') continue;
      // On a worker it went on while the bridge restarted: followed again there. In this process it went with the bridge that started it.
      if (this.options.remote) {
        const live: Live = {};
        const execution = this.options.executor.execute(run, this.reportsFor(run, live), { takingUp: true });
        this.slots.set(run.runId, live);
        live.done = this.follow(run, live, execution);
        continue;
      }
      if (resumable(run, this.options.config.restart.resume)) {
        // Queued again, marked: it starts in its session (or from its task) when a slot is free.
        const { stoppedBy: _, ...rest } = run;
        await this.store.save({ ...rest, status: 'queued', resumes: (run.resumes ?? 0) + 1 });
        this.log.info({ run: run.runId, chat: run.requesterKey }, `run #${run.number} is taken up again after the restart`);
        continue;
      }
      await this.end(run, { status: 'interrupted', error: 'interrupted by a restart of the bridge' });
      interrupted++;
    }
    const requeued = this.store.all().filter((r) => r.status === 'queued').length;
    this.schedule();
    return { interrupted, requeued };
  }

  /**
   * The first part of a restart: no queued run starts, and the runs in this process have until
   * `ms` have passed to end by themselves (runs on workers go on regardless).
   */
  async drain(ms: number): Promise<void> {
    this.holding = true;
    await Promise.race([Promise.all(this.endingHere()), delay(ms)]);
  }

  /** How many runs a drain begun now waits for. */
  runsHere(): number {
    return this.endingHere().length;
  }

  /** The runs at work in this process, by when each ends (none when they run on workers). */
  private endingHere(): Promise<void>[] {
    return this.options.remote ? [] : [...this.slots].flatMap(([, live]) => (live.done ? [live.done] : []));
  }

  /**
   * Graceful shutdown: runs in this process are stopped and recorded as interrupted; runs on
   * workers keep going and are followed again after the restart; queued ones stay queued.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    const stopping = this.options.remote ? [] : [...this.slots];
    await Promise.all(
      stopping.map(async ([runId, live]) => {
        const run = this.store.get(runId);
        if (run) await this.store.save({ ...run, stoppedBy: 'shutdown' });
        await live.execution?.stop('the bridge is shutting down');
        await live.done;
      }),
    );
    await this.options.executor.close();
  }

  /**
   * A message for a running run, delivered as its execution can (see RunExecution.send): into
   * its CLI while it works, or its next turn (a queued run has no session yet; an ended one is
   * over). Audited, with the message's id and how it went.
   */
  async send(
    runId: string,
    text: string,
    by: string,
    /** The message whose command sends it (`<chat>#<message id>`): noted on the run before it is handed over (see `heard`). */
    fromMessage?: string,
  ): Promise<{ ok: true; delivery: MessageDelivery; messageId: string } | { ok: false; error: string; refusal: Refusal }> {
    const run = this.store.get(runId);
    if (!run) return { ok: false, error: 'No such run.', refusal: 'invalid' };
    if (run.status !== 'running') {
      const why =
        run.status === 'queued'
          ? 'has not started yet: wait for it, or stop it and spawn again with the message'
          : `has ended (${run.status.replace('_', ' ')})`;
      return { ok: false, error: `#${run.number} ${why}.`, refusal: 'invalid' };
    }
    const messageId = randomUUID();
    if (fromMessage && this.slots.get(runId)?.execution)
      await this.store.save({ ...run, heardFrom: [...(run.heardFrom ?? []), fromMessage].slice(-HEARD_KEPT) });
    const delivery = this.slots.get(runId)?.execution?.send(text, messageId);
    if (delivery === undefined) return { ok: false, error: `#${run.number} is ending; it takes no more messages.`, refusal: 'invalid' };
    void this.options.audit.record({
      event: 'send',
      runId,
      chat: run.requesterKey,
      by,
      input: text,
      detail: `message ${messageId}, ${delivery.via.replace('_', ' ')}`,
    });
    return { ok: true, delivery, messageId };
  }

  /** Pauses a running run's timeout while it waits on a person (see ApprovalBroker). */
  holdTimeout(runId: string): () => void {
    return this.slots.get(runId)?.execution?.holdTimeout() ?? (() => {});
  }

  /** Ends a run's auto-approval: from now on its tool calls are asked in the chat. */
  async revokeAutoApprove(runId: string, by: string): Promise<boolean> {
    const run = this.store.get(runId);
    const auto = run?.policy?.autoApprove;
    if (!run || !auto || auto.revoked || !isActive(run)) return false;
    await this.store.save({ ...run, policy: { ...run.policy!, autoApprove: { ...auto, revoked: { by, at: Date.now() } } } });
    await this.options.audit.record({ event: 'revoke', runId, chat: run.requesterKey, by });
    return true;
  }

  /** Where runs execute, for /status: this process, or the workers and their queue. */
  async describeExecution(): Promise<string> {
    return this.options.remote ? this.options.remote.describe() : 'in the bridge’s own process';
  }

  runningTotal(): number {
    return this.slots.size;
  }

  queuedTotal(): number {
    return this.store.all().filter((run) => run.status === 'queued').length;
  }

  /** Starts queued runs, oldest first, wherever a chat and the machine have room. */
  schedule(): void {
    if (!this.starting()) return;
    for (const { run, live } of this.slots.claimQueued())
      live.done = this.start(run, live).catch((error) => this.log.error({ run: run.runId, chat: run.requesterKey, err: error }, 'the run failed to run'));
  }

  /** Runs may start now: the bridge is not closing or draining, and their executor is there. */
  private starting(): boolean {
    return !this.closed && !this.holding && !this.options.remote?.unavailable();
  }

  /**
   * Its first write failed: the slot goes, and the run waits in memory as queued, as a queued
   * run whose write failed would (a later write may still save it).
   */
  private unclaim(run: SubagentRunRecord): void {
    this.slots.delete(run.runId);
    const { startedAt: _, ...queued } = run;
    this.store.save({ ...queued, status: 'queued' }).catch(() => {});
  }

  /** A queued run starts: it is saved as running before its CLI starts. */
  private async start(queued: SubagentRunRecord, live: Live): Promise<void> {
    const run: SubagentRunRecord = { ...queued, status: 'running', startedAt: Date.now() };
    await this.store.save(run);
    await this.execute(run, live);
  }

  /** A run saved as running: its CLI starts, and is followed to its end. */
  private async execute(run: SubagentRunRecord, live: Live): Promise<void> {
    this.options.onStarted?.(run);
    this.log.info({ run: run.runId, chat: run.requesterKey, cli: run.cli, cwd: run.cwd }, `run #${run.number} started`);
    // Its trace, from its start to its ending: on a worker, its session's turn carries it there.
    const spans = AgentSpans.invoke(tracedRun(run, this.options.config.adapters.get(run.cli)?.provider));
    const trace = carrierOf(spans.context);
    const execution = this.options.executor.execute(run, this.reportsFor(run, live, spans), trace ? { trace } : {});
    // Stopped while its slot was being set up: stop it now that it can be.
    const stoppedBy = this.store.get(run.runId)?.stoppedBy;
    if (stoppedBy) void execution.stop(stoppedBy === 'shutdown' ? 'the bridge is shutting down' : `stopped by ${stoppedBy}`);
    await this.follow(run, live, execution, spans);
  }

  /** What a running run reports goes to its record, its log (opened here), the audit trail and its spans. */
  private reportsFor(run: SubagentRunRecord, live: Live, spans?: AgentSpans): RunReports {
    live.log = new RunLog(run.logFile, this.limits.logMaxBytes);
    return runReports(run, live.log, this.options, spans);
  }

  /** Waits for a running run's ending, records it, and gives its slot to the next one. */
  private async follow(run: SubagentRunRecord, live: Live, execution: RunExecution, spans?: AgentSpans): Promise<void> {
    live.execution = execution;
    let ending: RunEnding;
    try {
      ending = await execution.ending;
    } finally {
      live.log?.close();
    }
    const trace = spans && carrierOf(spans.context);
    if (spans) {
      traceEnding(spans, ending);
      spans.end();
    }
    const stored = this.store.get(run.runId) ?? run;
    const latest = trace ? { ...stored, trace } : stored;
    // Stopped by the shutdown, to be taken up at the next start: it stays running on disk.
    if (this.closed && latest.stoppedBy === 'shutdown' && resumable(latest, this.options.config.restart.resume)) return;
    const { run: last, ended } = endingOf(latest, ending);
    await this.end(last, ended);
    this.slots.delete(run.runId);
    this.schedule();
  }

  private async end(run: SubagentRunRecord, patch: Partial<SubagentRunRecord> & { status: RunStatus }): Promise<void> {
    const { audit } = this.options;
    if (patch.status === 'timed_out') void audit.record({ event: 'timeout', runId: run.runId, chat: run.requesterKey, detail: patch.error });
    // The record keeps the run's audit counts: /subagents info never reads the trail back.
    const ended: SubagentRunRecord = { ...run, ...patch, endedAt: Date.now(), auditCounts: audit.countsFor(run.runId) };
    this.log[ended.status === 'completed' || ended.status === 'stopped' ? 'info' : 'warn'](
      { run: run.runId, chat: run.requesterKey, ms: ended.startedAt ? runtimeMs(ended) : undefined, costUsd: ended.costUsd, error: ended.error || undefined },
      `run #${run.number} ${ended.status}`,
    );
    audit.forget(run.runId);
    // Nothing to deliver (an orchestration step, say): its retention starts now.
    if (ended.delivery.chat !== 'pending' && ended.delivery.agent !== 'pending') ended.archiveAfter = ended.endedAt! + this.limits.retentionMinutes * 60_000;
    await this.store.save(ended);
    this.options.onEnded(ended);
  }
}
