import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { nanoid } from 'nanoid';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { ExecuteOptions, RunEnding, RunExecution, RunExecutor, RunReports } from '../subagents/execution.ts';
import { RunControl } from './control.ts';
import { connect, describeRedis, followOutages, keys, PREFIX, QUEUE_NAME } from './redis.ts';
import { deliver, RunEventsReader, type RunEvent } from './run-events.ts';
import { RUN_ATTEMPT, runJob } from './run-job.ts';
import { endingOfStall, INTERRUPTED, stoppedEnding } from './endings.ts';
import { asSigned, type QueueSigner } from './signing.ts';
import type { BridgeKeys } from './bridge-keys.ts';
import { RunPlacements } from './run-placement.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { QueueCensus } from '../../services/telemetry/metrics-queue.ts';

export interface QueueExecutorOptions {
  redisUrl: string;
  /** Jobs, their results and their event streams stay in Redis this long after they end. */
  keepSeconds: number;
  /**
   * The run's access to the bridge's tools (its worker writes the CLI's config file itself),
   * granted with `reuse` as its secret: its placement's bearer, which its worker is given in
   * its grant, and this bridge derives again after a restart. A new placement's revokes the last.
   */
  toolsFor: (run: SubagentRunRecord, reuse?: string) => McpAccess | undefined;
  toolTimeoutMs: number;
  /** How long a worker's lock on a run lasts unrenewed (settings.workers.lockSeconds): past it, the run's job has stalled. */
  lockSeconds: number;
  /** The queue secret (BRIDGE_QUEUE_SECRET): jobs are signed with it, and workers' claims checked (it admits a worker). */
  signer: QueueSigner;
  /** The bridge's own keys: each placement's channel and bearer, the grants sealed for workers, its read marks. */
  keys: BridgeKeys;
  /** Says a line in the run's chat (that it moved to another worker). */
  tell?: (run: SubagentRunRecord, line: string) => void;
  log: Log;
}

/** A run whose end was missed (its completion event trimmed away while the bridge was down) is looked up this often. */
const RECHECK_MS = 30_000;
/** How long /status waits for Redis to say how many workers there are. */
const DESCRIBE_WITHIN_MS = 2000;
/** The name the bridge's stall check goes by among the queue's workers: it takes no job, so it is not counted as one. */
const STALL_WATCH = 'bridge-stall-watch';

/**
 * Runs subagents through a BullMQ queue on Redis, executed by workers (`npm run worker`) on
 * this machine or others. The registry still decides what runs when (the limits hold across
 * all workers); this adds each run as a job whose id is the run id, follows its events
 * stream, and takes its ending from the job's result. Runs outlive the bridge: after a
 * restart they are followed again where they are.
 */
export class QueueExecutor implements RunExecutor {
  readonly outlivesBridge = true;
  private readonly commands: Redis;
  private readonly control: RunControl;
  private readonly placements: RunPlacements;
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  /** QueueEvents' own connection: BullMQ leaves a connection it was given open, so it is closed here. */
  private readonly eventsConnection: Redis;
  private readonly reader: RunEventsReader;
  /**
   * BullMQ's stalled-job check, run by the bridge too: a run whose worker died is noticed even
   * when no worker is left to notice it. It takes no job.
   */
  private readonly stallWatch: Worker;
  private readonly stallWatchConnection: Redis;
  /** How each followed run is ended from here, when its job is taken out of the queue (stopped, or abandoned by a dead worker). */
  private readonly endHere = new Map<string, (ending: RunEnding) => void>();
  private readonly where: string;
  private downSince: number | undefined;
  private lastError: string | undefined;
  private readonly availableListeners: (() => void)[] = [];
  private readonly closing: Promise<RunEnding>;
  private close_!: (ending: RunEnding) => void;

  constructor(private readonly options: QueueExecutorOptions) {
    this.where = describeRedis(options.redisUrl);
    const onError = (error: Error) => this.noteError(error);
    this.commands = connect(options.redisUrl, onError);
    this.control = new RunControl(this.commands, options.keepSeconds);
    this.placements = new RunPlacements({
      redis: this.commands,
      admission: options.signer,
      keys: options.keys,
      jobs: options.keys.sealer('jobs'),
      keepSeconds: options.keepSeconds,
      refused: (runId, why) => this.refused(runId, why),
    });
    // Until the first failed attempt, runs wait: nothing is refused at start-up for a slow Redis.
    followOutages(this.commands, `the queue's Redis (${this.where})`, options.log, { down: () => this.down(), up: () => this.up() });
    // Workers learn the bridge's key here (again after Redis lost it).
    const publish = () => void options.keys.publish(this.commands, options.signer).catch(onError);
    this.commands.on('ready', publish);
    publish();
    this.queue = new Queue(QUEUE_NAME, { connection: this.commands, prefix: PREFIX });
    this.queue.on('error', onError);
    this.eventsConnection = connect(options.redisUrl, onError);
    this.events = new QueueEvents(QUEUE_NAME, { connection: this.eventsConnection, prefix: PREFIX });
    this.events.on('error', onError);
    this.reader = new RunEventsReader(connect(options.redisUrl, onError), this.commands, options.keys.own, options.keepSeconds, onError, (runId, why) =>
      this.refused(runId, why),
    );
    this.closing = new Promise((resolve) => (this.close_ = resolve));
    this.events.on('stalled', ({ jobId }) => void this.stalled(jobId).catch(onError));
    this.stallWatchConnection = connect(options.redisUrl, onError);
    this.stallWatch = new Worker(QUEUE_NAME, undefined, {
      connection: this.stallWatchConnection,
      prefix: PREFIX,
      name: STALL_WATCH,
      autorun: false,
      // As the workers check: a job whose lock went unrenewed this long has stalled.
      stalledInterval: options.lockSeconds * 1000,
      lockDuration: options.lockSeconds * 1000,
      maxStalledCount: 1,
    });
    this.stallWatch.on('error', onError);
    void this.stallWatch.startStalledCheckTimer().catch(onError);
  }

  execute(run: SubagentRunRecord, reports: RunReports, options: ExecuteOptions = {}): RunExecution {
    // Where its tools are; the secret it gets on them is its placement's, granted when a worker claims it.
    const mcp = this.options.toolsFor(run);
    const job = runJob(run, mcp && { url: mcp.url, serverName: mcp.serverName }, this.options.toolTimeoutMs, options.trace);
    return this.follow(run, reports, () =>
      this.queue.add('run', this.placements.queued(run.runId, job), {
        jobId: run.runId,
        attempts: 1,
        removeOnComplete: { age: this.options.keepSeconds },
        removeOnFail: { age: this.options.keepSeconds },
      }),
    );
  }

  reattach(run: SubagentRunRecord, reports: RunReports): RunExecution {
    return this.follow(run, reports);
  }

  unavailable(): string | undefined {
    if (this.downSince === undefined) return undefined;
    return `the queue's Redis (${this.where}) is unreachable since ${new Date(this.downSince).toISOString().slice(11, 19)} UTC${this.lastError ? ` (${this.lastError})` : ''}`;
  }

  onAvailable(listener: () => void): void {
    this.availableListeners.push(listener);
  }

  /** Answers within DESCRIBE_WITHIN_MS whatever Redis does: /status must not hang on it. */
  async describe(): Promise<string> {
    const down = this.unavailable();
    if (down) return `on workers, but ${down}`;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DESCRIBE_WITHIN_MS)));
    const answer = await Promise.race([Promise.all([this.queue.getWorkers(), this.queue.getJobCounts('waiting', 'active')]), silent]).finally(() =>
      clearTimeout(timer),
    );
    if (!answer) return `on workers, but the queue's Redis (${this.where}) is unreachable: it has not answered for ${DESCRIBE_WITHIN_MS / 1000} s`;
    // BullMQ keeps each client's own connection name as `rawname`.
    const workers = answer[0].filter((client) => !String(client.rawname).endsWith(`:w:${STALL_WATCH}`)).length;
    const counts = answer[1];
    return `on workers through ${this.where}: ${workers} worker${workers === 1 ? '' : 's'} connected, ${counts.active ?? 0} running, ${counts.waiting ?? 0} waiting for a worker`;
  }

  /**
   * The queue at one look, for the metrics: jobs by state, and how long each connected worker
   * has been silent to Redis. Undefined when Redis is down or does not answer within
   * DESCRIBE_WITHIN_MS: a scrape must not hang on it.
   */
  async census(): Promise<QueueCensus | undefined> {
    if (this.unavailable()) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DESCRIBE_WITHIN_MS)));
    const asked = Promise.all([this.queue.getWorkers(), this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')]);
    const answer = await Promise.race([asked.catch(() => undefined), silent]).finally(() => clearTimeout(timer));
    if (!answer) return undefined;
    const [clients, counts] = answer;
    // A worker speaks on several connections: its freshest says when it was last heard.
    const idle = new Map<string, number>();
    for (const client of clients) {
      const rawname = String(client.rawname ?? '');
      if (rawname.endsWith(`:w:${STALL_WATCH}`)) continue;
      const seconds = Number(client.idle);
      if (!Number.isFinite(seconds)) continue;
      const name = String(client.name ?? rawname);
      idle.set(name, Math.min(idle.get(name) ?? Infinity, seconds));
    }
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      workersIdleSeconds: [...idle.values()],
    };
  }

  async close(): Promise<void> {
    this.close_({ interrupted: 'the bridge is shutting down' });
    await this.reader.close();
    await Promise.allSettled([this.events.close(), this.queue.close(), this.stallWatch.close()]);
    this.stallWatchConnection.disconnect();
    this.eventsConnection.disconnect();
    this.commands.disconnect();
  }

  /** Submits the run (unless it is already queued), then follows its events until its job ends. */
  private follow(run: SubagentRunRecord, reports: RunReports, submit?: () => Promise<unknown>): RunExecution {
    const { runId } = run;
    const attempt = RUN_ATTEMPT;
    const removed = new Promise<RunEnding>((resolve) => this.endHere.set(runId, resolve));
    const ending = (async (): Promise<RunEnding> => {
      const claimed = (raw: string) =>
        void this.placements
          .claim(runId, raw, {
            data: async () => (await Job.fromId(this.queue, runId))?.data,
            grantTools: (bearer) => this.options.toolsFor(run, bearer) !== undefined,
            placed: (placement) => this.control.placed(runId, placement),
          })
          .catch((error: Error) => this.options.log.error({ run: runId, err: error }, `a claim of the run was not answered: ${error.message}`));
      await this.reader.follow(runId, { channel: (placement) => this.placements.channel(runId, placement), onClaim: claimed }, (event) => {
        if (event.kind === 'moved') this.moved(run, event);
        else deliver(event, reports);
      });
      if (submit) await submit();
      const job = await Job.fromId(this.queue, runId);
      if (!job) return { interrupted: 'its job is gone from the queue (removed from Redis, or Redis lost its data)' };
      const signed = this.options.signer.verify(job.data, { kind: 'job', runId, attempt });
      if (!signed.ok) {
        await this.reader.forget(runId);
        return this.unsigned(job, signed.why);
      }
      // Followed again after a restart: its CLI still holds its placement's secret, which this bridge derives and grants again.
      const placement = submit ? undefined : await this.placements.current(runId);
      if (placement) {
        await this.control.placed(runId, placement);
        this.options.toolsFor(run, this.placements.bearer(runId, placement.attempt));
      }
      const finished = await Promise.race([this.finished(job), removed, this.closing]);
      if ('interrupted' in finished && finished.interrupted === 'the bridge is shutting down') return finished;
      await this.reader.caughtUp(runId);
      await this.reader.forget(runId);
      return finished;
    })().finally(() => {
      this.endHere.delete(runId);
      this.control.forget(runId);
      this.placements.forget(runId);
    });
    const holds = new Map<string, true>();
    return {
      ending,
      stop: async (reason) => {
        await this.control.stop(runId, reason);
        const job = await Job.fromId(this.queue, runId);
        // Not taken by a worker yet: out of the queue, and stopped here.
        if (job && ['waiting', 'delayed', 'prioritized'].includes(await job.getState())) {
          const gone = await job.remove().then(
            () => true,
            () => false,
          );
          if (gone) this.endHere.get(runId)?.(stoppedEnding(reason));
        }
        await ending;
      },
      send: (text, id) => {
        void this.control.send(runId, { id, text }).catch(() => {});
        return { via: 'worker' };
      },
      holdTimeout: () => {
        const holdId = nanoid(8);
        holds.set(holdId, true);
        void this.control.hold(runId, holdId).catch(() => {});
        return () => {
          if (holds.delete(holdId)) void this.control.release(runId, holdId).catch(() => {});
        };
      },
    };
  }

  /**
   * A job whose worker stopped renewing its lock (it died) went back to the queue. If its CLI
   * had started and its worker did not hand it back, it is not run again: taken out of the queue here and ended as interrupted,
   * whether or not a worker is left to take it (one that took it first ends it the same way).
   * Its CLI session is on the dead worker's machine, so it is not resumed elsewhere.
   */
  private async stalled(runId: string): Promise<void> {
    const end = this.endHere.get(runId);
    if (!end) return;
    const startedBy = await this.commands.get(keys.started(runId));
    if (!startedBy) return; // its CLI never started: any worker may still run it
    if (await this.placements.handedBack(runId)) return; // its worker handed it back before it died: the next worker goes on with it
    const job = await Job.fromId(this.queue, runId);
    if (!job || !['waiting', 'delayed', 'prioritized'].includes(await job.getState())) return;
    const removed = await job.remove().then(
      () => true,
      () => false,
    );
    if (!removed) return;
    this.options.log.warn({ run: runId }, `the worker running it (${startedBy}) stopped: the run ends as interrupted`);
    end({ interrupted: `${INTERRUPTED}the worker running it (${startedBy}) stopped before it finished` });
  }

  /** Its worker was drained and handed it back: the chat hears it in one line, and the log says so. */
  private moved(run: SubagentRunRecord, event: Extract<RunEvent, { kind: 'moved' }>): void {
    const how = event.inSession ? 'it goes on in its CLI session on the next free worker' : 'it starts again from its task on the next free worker';
    this.options.log.info({ run: run.runId, chat: run.requesterKey }, `run #${run.number} was handed back by its worker ${event.from}: ${how}`);
    this.options.tell?.(run, `↪️ #${run.number}${run.label ? ` ${run.label}` : ''} moves off worker ${event.from}, which is shutting down: ${how}.`);
  }

  /** The job's ending: its result, or why it failed; looked up again now and then in case its event was missed. */
  private async finished(job: Job): Promise<RunEnding> {
    let recheck: NodeJS.Timeout | undefined;
    const lookedUp = new Promise<RunEnding>((resolve) => {
      recheck = setInterval(async () => {
        const state = await job.getState().catch(() => 'unknown');
        if (state !== 'completed' && state !== 'failed') return;
        const fresh = await Job.fromId(this.queue, job.id!).catch(() => undefined);
        if (!fresh) return resolve({ interrupted: 'its job is gone from the queue' });
        resolve(state === 'completed' ? this.endingOf(job.id!, fresh.returnvalue) : this.failureOf(job.id!, fresh.failedReason));
      }, RECHECK_MS);
    });
    try {
      return await Promise.race([
        job.waitUntilFinished(this.events).then(
          (value: unknown) => this.endingOf(job.id!, value),
          (error: Error) => this.failureOf(job.id!, error.message),
        ),
        lookedUp,
      ]);
    } finally {
      clearInterval(recheck);
    }
  }

  /** The run's ending as its placement's worker sealed it; anything else is refused, and the run taken for interrupted. */
  private endingOf(runId: string, value: unknown): RunEnding {
    const attempt = asSigned(value)?.attempt ?? 0;
    const verified = this.placements.channel(runId, attempt)?.verify<RunEnding>(value, { kind: 'ending', runId, attempt }) ?? {
      ok: false as const,
      why: 'it is not signed',
    };
    if (verified.ok && verified.body && typeof verified.body === 'object') return verified.body;
    this.refused(runId, `its ending: ${verified.ok ? 'it is not an ending' : verified.why}`);
    return { interrupted: 'interrupted: its ending was refused (not signed by a worker of this bridge)' };
  }

  /**
   * A failed job. Workers sign every ending they know, so a failure is BullMQ's own (a stall),
   * or a worker's refusal of a job it could not verify, or something no worker said: its
   * text is never shown as the run's.
   */
  private failureOf(runId: string, reason: string | undefined): RunEnding {
    const stalled = endingOfStall(reason);
    if (stalled) return stalled;
    // The bridge refused its worker's claim (its CLI had started elsewhere): the job failed for that.
    const refusal = this.placements.refusals.get(runId);
    if (refusal && reason?.endsWith(refusal)) return { interrupted: refusal };
    this.refused(runId, `its failure (${reason ?? 'no reason'}): no worker signed it`);
    return { interrupted: 'interrupted: its job failed without a signed report from its worker' };
  }

  /**
   * A job not signed for its run (queued before the queue was signed, or by someone else):
   * never run, announced as interrupted, and removed, with whatever it held.
   */
  private async unsigned(job: Job, why: string): Promise<RunEnding> {
    this.refused(job.id!, `its job: ${why}`);
    await job.remove().catch(() => job.updateData({}).catch(() => {}));
    return { interrupted: `interrupted: its job was not run, as it is not signed for it (${why}); jobs queued before BRIDGE_QUEUE_SECRET are not run` };
  }

  private refused(runId: string, why: string): void {
    this.options.log.warn({ run: runId }, `refused from Redis: ${why}`);
  }

  private up(): void {
    this.downSince = undefined;
    this.lastError = undefined;
    for (const listener of this.availableListeners) listener();
  }

  private down(): void {
    this.downSince = Date.now();
    this.options.log.warn(`the queue's Redis (${this.where}) is unreachable: runs on workers go on; new ones wait until it is back`);
  }

  private noteError(error: Error): void {
    this.lastError = error.message;
  }
}
