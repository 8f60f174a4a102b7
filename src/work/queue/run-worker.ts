import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { observeWorkerRuns, queueWaited } from '../../services/telemetry/metrics-queue.ts';
import type { Redis } from 'ioredis';
import type { BridgeConfig } from '../../services/config/config.ts';
import type { RunEnding, RunExecution } from '../subagents/execution.ts';
import { LocalExecutor } from '../subagents/local-execution.ts';
import { actOnAsks, forgetAsks, onAsks, readAsks, readStop, type AskReader, type RunningHere } from './control.ts';
import { describeEnding, INTERRUPTED, stoppedEnding } from './endings.ts';
import { connect, describeRedis, keys, followOutages, PREFIX, QUEUE_NAME } from './redis.ts';
import { RunEventsWriter } from './run-events.ts';
import { handbackOf, withEarlier, writeHandback } from './handback.ts';
import type { DrainDeadline, DrainHolder, Drainable, DrainOutcome } from './worker-drain.ts';
import { checkQueuedJob, parseRunJob, RefusedJob, runHere, type RunJob } from './run-job.ts';
import { claimRun, type RunGrant } from './run-placement.ts';
import { SealedChannel } from './channel.ts';
import { RunToolAccess } from './run-tool-access.ts';
import type { WorkerKeys } from './worker-keys.ts';
import type { QueueSigner, Signed } from './signing.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { Secrets } from '../../kernel/log/secrets.ts';
import { AgentSpans } from '../../services/telemetry/traced-agent.ts';
import { tracedRun, traceEnding } from '../subagents/run-spans.ts';

export interface RunWorkerOptions {
  config: Pick<BridgeConfig, 'adapters' | 'cliEnv' | 'settings' | 'dataDir' | 'sandbox'> & Partial<Pick<BridgeConfig, 'prices'>> & { redisUrl: string };
  /** The queue secret (BRIDGE_QUEUE_SECRET): what admits this worker (its jobs, claims and state); each run's traffic is sealed in its placement's channel. */
  signer: QueueSigner;
  /** This worker's own key pair: what the bridge places here is sealed for it. */
  keys: WorkerKeys;
  /** Shown in /subagents info and to dashboards; unique among workers. */
  name: string;
  /** Where this worker keeps its runs' worktrees and tool configs. */
  home: string;
  log: Log;
  /** Each run's MCP secret joins these while it runs: no log line shows it. */
  secrets: Secrets;
}

/** A run placed here: its grant, and the placement's channel. */
type Placed = RunGrant & { channel: SealedChannel };

/** A run running here: its execution, its placement's channel (what the bridge asks is sealed in it), and what of those asks it has taken. */
type Running = RunningHere & { execution: RunExecution; channel: SealedChannel; asks: AskReader };

/** A job this worker took, from the moment it took it: what a drain waits for. */
interface Taken {
  /** For the drain's log. */
  what: string;
  /** Settles once it has left this worker (its job ended, or went back to the queue). */
  left: Promise<DrainOutcome>;
  /** Its CLI, once started. */
  execution?: RunExecution;
  /** The drain's deadline came: it is stopped, to go on with another worker. */
  handingBack?: true;
}

/** What `run` returns for a run handed back: its job goes back to the queue instead of ending. */
const HANDED_BACK = Symbol('handed back');

/**
 * A worker: takes runs from the queue, as many at once as its concurrency, and executes each
 * on this machine as the bridge would (LocalExecutor), reporting to the run's event stream.
 * The bridge reaches a run here through the control channel: stop, hold the timeout.
 */
export class RunWorker implements DrainHolder {
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly worker: Worker;
  private readonly executor: LocalExecutor;
  private readonly running = new Map<string, Running>();
  private readonly taken = new Map<string, Taken>();
  private readonly tools: RunToolAccess;
  /** Runs waiting for the bridge's grant: woken when their bell rings. */
  private readonly bells = new Map<string, () => void>();
  /** Where its runs' MCP config files go, made at the first (see agentReadableFolder). */
  private readonly keepSeconds: number;
  private shuttingDown = false;
  /** Draining: jobs taken from now on go straight back to the queue. */
  private draining = false;
  private stopObserving: (() => void) | undefined;

  constructor(private readonly options: RunWorkerOptions) {
    const { config, log } = options;
    const where = describeRedis(config.redisUrl);
    this.commands = connect(config.redisUrl);
    followOutages(this.commands, `Redis (${where})`, log, {
      down: () => log.warn(`Redis (${where}) is unreachable: runs here go on, and their reports wait until it is back`),
    });
    this.subscriber = connect(config.redisUrl);
    const workers = config.settings.workers;
    this.tools = new RunToolAccess(options.secrets);
    this.keepSeconds = workers.keepHours * 3600;
    this.executor = new LocalExecutor({
      adapters: config.adapters,
      cliEnv: config.cliEnv,
      dataDir: options.home,
      stopGraceMs: config.settings.stopGraceMs,
      maxDepth: config.settings.subagents.maxDepth,
      silenceSeconds: config.settings.silenceSeconds,
      toolsFor: (run) => this.tools.of(run.runId),
      prices: config.prices,
      log,
    });
    this.worker = new Worker(QUEUE_NAME, (job, token, signal) => this.process(job, token, signal), {
      connection: connect(config.redisUrl),
      prefix: PREFIX,
      name: options.name,
      concurrency: workers.concurrency,
      lockDuration: workers.lockSeconds * 1000,
      stalledInterval: workers.lockSeconds * 1000,
      // A run whose worker died goes back to the queue once: the next worker ends it as
      // interrupted if its CLI had started, or runs it if it had not.
      maxStalledCount: 1,
      autorun: false,
    });
    // Its connection's outages are the commands connection's, said above; anything else is news.
    this.worker.on('error', (error: Error & { code?: string }) => {
      if (this.commands.status !== 'ready' || error.code) return;
      log.error({ err: error }, `the worker's queue failed: ${error.message}`);
    });
  }

  /**
   * Listens for the bridge's control messages, then takes runs. Redis refusing the
   * credentials fails the start (nothing would ever work); Redis unreachable is waited for.
   */
  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const refused = (error: Error) => {
        if (!/WRONGPASS|NOAUTH|NOPERM/.test(error.message)) return;
        this.commands.off('error', refused);
        this.commands.disconnect();
        reject(new Error(`Redis (${describeRedis(this.options.config.redisUrl)}) refused this worker: ${error.message}`));
      };
      this.commands.on('error', refused);
      this.commands.ping().then(() => {
        this.commands.off('error', refused);
        resolve();
      }, reject);
    });
    await onAsks(this.subscriber, (runId) => {
      for (const id of runId ? [runId] : this.running.keys()) void this.actOnAsks(id);
      for (const [id, ring] of this.bells) if (!runId || id === runId) ring();
    });
    this.stopObserving = observeWorkerRuns(() => this.running.size);
    void this.worker.run();
    await this.worker.waitUntilReady();
    // Its own configuration decides its walls (BRIDGE_SANDBOX): said where the operator looks first.
    const { decision } = this.options.config.sandbox;
    const walls = decision.on ? `in walls (${decision.why}, through this worker's own egress and credential proxies)` : `without walls (${decision.why})`;
    this.options.log.info(
      `worker ${this.options.name} taking runs from ${describeRedis(this.options.config.redisUrl)}, ${this.options.config.settings.workers.concurrency} at once, CLIs ${walls}`,
    );
  }

  /** Takes no more runs: the queue keeps them for other workers. Those running here go on. */
  async stopTaking(): Promise<void> {
    this.draining = true;
    await this.worker.pause(true);
  }

  /** The runs here, each to finish by the drain's deadline or be handed back at it (stopped as Stop stops it, its CLI session kept). */
  drainables(): Drainable[] {
    return [...this.taken.entries()].map(([runId, taken]) => ({
      what: taken.what,
      finishOrHandBack: async (deadline: DrainDeadline) => {
        const outcome = await Promise.race([taken.left, deadline.reached.then(() => undefined)]);
        if (outcome) return outcome;
        if (!this.running.get(runId)?.stopping) {
          taken.handingBack = true;
          this.options.log.info(
            { run: runId },
            `handing ${taken.what} back: ${deadline.wasForced ? 'the drain was forced' : 'the drain reached its deadline'}`,
          );
          void taken.execution?.stop(`its worker (${this.options.name}) is shutting down`);
        }
        return taken.left;
      },
    }));
  }

  /** Stops taking runs and stops those running here: they end as interrupted by the shutdown. */
  async close(): Promise<void> {
    this.shuttingDown = true;
    this.stopObserving?.();
    this.worker.cancelAllJobs('its worker is shutting down');
    await this.worker.close();
    await this.executor.close();
    this.tools.close();
    this.subscriber.disconnect();
    this.commands.disconnect();
  }

  /** Does what the bridge asked of a run here (see RunControl); what it asks of runs elsewhere is theirs. */
  private async actOnAsks(runId: string): Promise<void> {
    const reader = this.running.get(runId)?.asks;
    if (!reader) return;
    // A failed read is read again at the next bell, or once this worker is subscribed again.
    const channel = this.running.get(runId)?.channel;
    const asks = channel && (await readAsks(this.commands, channel, reader).catch(() => undefined));
    const running = this.running.get(runId);
    if (!asks || !running) return;
    actOnAsks(running, asks, { cancel: (why) => this.worker.cancelJob(runId, why), log: this.options.log.child({ run: runId }) });
  }

  /**
   * Runs a job the bridge queued, once the bridge placed it here, and returns its ending sealed
   * in the placement's channel. A job not signed with the queue secret runs nothing: it fails,
   * unsigned (nothing a forger could reuse). A run handed back by the drain goes back to the
   * queue, for the next worker.
   */
  private async process(job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<Signed> {
    // Taken as the drain began: it goes back untouched, first in line.
    if (this.draining) return this.backToQueue(job, token);
    const runId = String(job.id);
    let leave!: (outcome: DrainOutcome) => void;
    const taken: Taken = { what: `run ${runId}`, left: new Promise((resolve) => (leave = resolve)) };
    try {
      checkQueuedJob(this.options.signer, job.id, job.data);
      // From its adding to its taking (BullMQ's clocks: the bridge's and this machine's).
      queueWaited((job.processedOn ?? Date.now()) - job.timestamp);
      this.taken.set(runId, taken);
      const placed = await this.claim(runId, taken, signal);
      if (!placed) {
        leave('handed back');
        return await this.backToQueue(job, token);
      }
      const runJob = parseRunJob(runId, placed.job);
      taken.what = `run ${runId} (#${runJob.run.number})`;
      // The run's part here, in the bridge's trace of it (the job carries where it is).
      const provider = this.options.config.adapters.get(runJob.run.cli)?.provider;
      const spans = AgentSpans.process(tracedRun(runJob.run, { provider, parent: runJob.trace }), QUEUE_NAME, this.options.name);
      let ending: RunEnding | typeof HANDED_BACK;
      try {
        ending = await this.run(runJob, placed, signal, taken, spans);
      } catch (error) {
        ending = { failed: `its worker (${this.options.name}) failed: ${(error as Error).message}` };
      }
      if (ending === HANDED_BACK) {
        spans.note('handed over');
        spans.end();
        const back = this.backToQueue(job, token);
        await back.catch(() => {});
        leave('handed back');
        return await back;
      }
      traceEnding(spans, ending);
      spans.end();
      return placed.channel.sign({ kind: 'ending', runId, attempt: placed.attempt }, ending, this.keepSeconds);
    } catch (error) {
      if (!(error instanceof RefusedJob)) throw error;
      this.options.log.warn({ run: job.id }, `refused a job from Redis, nothing run: ${error.message}`);
      throw new UnrecoverableError(`refused by worker ${this.options.name}: ${error.message}`);
    } finally {
      this.taken.delete(runId);
      leave('finished');
    }
  }

  /**
   * Claims the run from the bridge and waits for its grant: the placement's channel, its bearer,
   * the job, where its last worker stopped. Undefined when this worker gave up waiting (it
   * drains, or shuts down): the job goes back to the queue. A refusal fails the job with it.
   */
  private async claim(runId: string, taken: Taken, signal: AbortSignal | undefined): Promise<Placed | undefined> {
    const log = this.options.log.child({ run: runId });
    const answer = await claimRun({
      redis: this.commands,
      admission: this.options.signer,
      keys: this.options.keys,
      runId,
      worker: this.options.name,
      keepSeconds: this.keepSeconds,
      gaveUp: () => this.shuttingDown || this.draining || taken.handingBack === true || signal?.aborted === true,
      bell: () => new Promise((resolve) => this.bells.set(runId, resolve)),
      refused: (why) => log.warn(`refused from Redis: ${why}`),
    }).finally(() => this.bells.delete(runId));
    if (!answer) return undefined;
    if ('refused' in answer) throw new UnrecoverableError(`refused by the bridge: ${answer.refused}`);
    const { grant } = answer;
    return { ...grant, channel: new SealedChannel(Buffer.from(grant.key, 'base64')) };
  }

  /** The job back in the queue, first in line, for another worker: BullMQ takes WaitingError for "moved, not failed". */
  private async backToQueue(job: Job, token: string | undefined): Promise<never> {
    try {
      await job.moveToWait(token);
    } catch (error) {
      // Its lock lapses, and the stall check takes it from there (the handback stays for whoever takes it).
      this.options.log.error({ run: job.id, err: error }, `could not put the run back in the queue: ${(error as Error).message}`);
    }
    throw new WaitingError();
  }

  private async run(job: RunJob, placed: Placed, signal: AbortSignal | undefined, taken: Taken, spans: AgentSpans): Promise<RunEnding | typeof HANDED_BACK> {
    const { mcp, toolTimeoutMs } = job;
    const { runId } = job.run;
    const { attempt, channel, handback } = placed;
    const asks: AskReader = { runId, attempt, taken: new Set(), holdsAt: 0 };
    const refused = (why: string) => this.options.log.warn({ run: runId }, `refused from Redis: ${why}`);
    const stoppedBefore = await readStop(this.commands, channel, asks, refused);
    if (stoppedBefore) return stoppedEnding(stoppedBefore);
    // Its CLI starts here: a take after a stall knows it may have run (the bridge then refuses it, unless it was handed back).
    await this.commands.set(keys.started(runId), this.options.name, 'EX', this.keepSeconds);
    const events = new RunEventsWriter(this.commands, channel, runId, attempt, this.keepSeconds, handback?.seq, (text) => this.options.secrets.redact(text));
    events.report({ kind: 'worker', name: this.options.name });
    const log = this.options.log.child({ run: runId, chat: job.run.requesterKey });
    log.info(
      { cli: job.run.cli, cwd: job.run.cwd },
      handback
        ? `run #${job.run.number} taken over from ${handback.from}${handback.sessionId ? `, in its CLI session ${handback.sessionId}` : ', from its task'}`
        : `run #${job.run.number} started here`,
    );
    let ending: RunEnding | undefined;
    let handedBack = false;
    try {
      const here = await runHere(job, handback, this.options.config.dataDir, this.options.name);
      if ('ending' in here) {
        ending = here.ending;
        return ending;
      }
      const { run } = here;
      const adapter = this.options.config.adapters.get(run.cli);
      // This placement's own bearer, from its grant: the bridge revokes it when the run leaves this worker.
      if (mcp && adapter && placed.bearer) this.tools.grant(runId, adapter, mcp, placed.bearer, toolTimeoutMs, run.mcpServers);
      const startedAt = Date.now();
      let sessionId = run.childSessionId;
      let toolCalled = handback !== undefined && (handback.steps > 0 || handback.sessionId !== undefined);
      const execution = this.executor.execute(run, {
        onLine: (raw) => events.line(raw),
        onEvent: (event) => spans.observe(event),
        onSession: (id) => {
          sessionId = id;
          events.report({ kind: 'session', sessionId: id });
        },
        onToolCall: (name, input) => {
          toolCalled = true;
          events.report({ kind: 'tool', name, input });
        },
        onWorktree: async (worktree) => events.report({ kind: 'worktree', worktree }),
        // Its sandbox is this worker's: a host it refused goes to the chat and the bridge's audit trail.
        onBlocked: (host, why) => events.report({ kind: 'blocked', host, why }),
        onWorker: () => {},
      });
      this.running.set(runId, { execution, asks, channel, holds: new Map() });
      taken.execution = execution;
      void this.actOnAsks(runId); // asked before it ran here
      const stop = () => void execution.stop(String(signal?.reason ?? 'stopped'));
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop, { once: true });
      // The drain's deadline came as it was being set up.
      if (taken.handingBack) void execution.stop(`its worker (${this.options.name}) is shutting down`);
      ending = await execution.ending;
      if (handback) ending = withEarlier(ending, handback);
      const stoppedHere = 'outcome' in ending && ending.outcome.status === 'stopped' && !ending.stoppedForCost;
      if (taken.handingBack && stoppedHere && !this.running.get(runId)?.stopping) {
        // Its session goes on elsewhere; without one, it runs again from its task, unless it acted.
        if (sessionId || !toolCalled) {
          const ranMs = (handback?.ranMs ?? 0) + Date.now() - startedAt;
          // The chat hears it moves, and the next worker finds where it stopped.
          events.report({ kind: 'moved', from: this.options.name, inSession: sessionId !== undefined });
          const left = handbackOf(this.options.name, ending as Extract<RunEnding, { outcome: unknown }>, sessionId, events.last, ranMs);
          await writeHandback(this.commands, placed.channel, runId, placed.attempt, left, this.keepSeconds);
          handedBack = true;
          return HANDED_BACK;
        }
        ending = {
          interrupted: `${INTERRUPTED}its worker (${this.options.name}) was shut down after its CLI had acted and before it named its session: it cannot go on elsewhere`,
        };
      }
      if (this.shuttingDown && stoppedHere) {
        ending = { interrupted: `${INTERRUPTED}its worker (${this.options.name}) was shut down` };
      }
      return ending;
    } finally {
      log.info(`run #${job.run.number} ${handedBack ? 'handed back to the queue' : `ended here: ${describeEnding(ending)}`}`);
      this.running.delete(runId);
      // What is asked of a run handed back is the next worker's to read.
      if (!handedBack) await forgetAsks(this.commands, runId).catch(() => {});
      this.tools.revoke(runId);
      await events.close();
    }
  }
}
