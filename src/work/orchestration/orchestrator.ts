import { nanoid } from 'nanoid';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import { every } from '../../kernel/concurrency/periodic.ts';
import { chatKey, isNoChat, type Outbound, type RichText } from '../../kernel/ports/chat.ts';
import type { SubagentSettings } from '../../kernel/settings/bridge-manifest.ts';
import { pendingDelivery } from '../subagents/delivery.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { SpawnIntent, SpawnOrigin } from '../subagents/spawner.ts';
import type { Subagents } from '../subagents/subagents.ts';
import { stepById } from './graph.ts';
import { type OrchestrationRecord, type StepRecord } from './orchestration-record.ts';
import type { OrchestrationStore } from './orchestration-store.ts';
import type { Plan, PlanStep } from './plan.ts';
import { cascade, isFinished, overallStatus, readySteps } from './schedule.ts';
import type { StepStates } from './state.ts';
import { promptWithUpstream } from './upstream.ts';
import { ProgressPictures, type ProgressDrawing } from './progress-picture.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';

/** Where a plan's steps start from: its author's chat (or run), directory, CLI, depth and limits. */
export type PlanOrigin = Omit<SpawnOrigin, 'orchestration' | 'requesterSessionId'>;

/** A step as a spawn asks for it; the prompt carries the upstream results once they exist. */
function stepIntent(step: PlanStep, task: string): SpawnIntent {
  const { cli, model, agent, worktree, allow, autoApprove, maxTurns } = step;
  return { task, label: step.name, cli, model, agent, worktree, allow, autoApprove, maxTurns };
}

/** A step interrupted by a restart is started again this many times before it counts as failed. */
const MAX_ATTEMPTS = 2;
const PROGRESS_INTERVAL_MS = 1000;
const SWEEP_INTERVAL_MS = 60_000;

export interface OrchestratorOptions {
  store: OrchestrationStore;
  subagents: Subagents;
  out: Outbound;
  /** An orchestration ended with its announcement pending: the outbox takes it from there. */
  announce: () => void;
  /** The progress message's text: every step, its run and state (the presentation layer's). */
  progressText: (orchestration: OrchestrationRecord, runOf: (runId: string) => SubagentRunRecord | undefined) => RichText;
  /**
   * The graph beside the progress message, as a picture, where the transport shows pictures:
   * sent with it, replaced when it is brought up to date and the graph changed. None: text only.
   */
  progressPicture?: ProgressDrawing;
  /** manifest.json `settings.subagents.announceTo`: whether an agent's plan is reported back to it. */
  announceTo: SubagentSettings['announceTo'];
  /** Ended orchestrations leave the live file after this long, for an archive that keeps this many per chat. */
  retention: { ms: number; perChat: number };
  log: Log;
}

/**
 * Runs plans of subagent steps on the registry: ready steps start (within the chat's
 * limits), each finished step's result flows into the prompts of the steps that need it, a
 * failure fails everything below it, and the end is announced once. Every change is saved
 * first, so a restart picks up where it was.
 */
export class Orchestrator {
  /** One change at a time per orchestration: steps ending together must not race. */
  private readonly changes = new KeyedSerializer();
  private sweeping: { stop: () => void } | undefined;
  private readonly progressTimers = new Map<string, NodeJS.Timeout>();
  private readonly lastProgress = new Map<string, number>();
  private readonly pictures: ProgressPictures | undefined;

  constructor(private readonly options: OrchestratorOptions) {
    this.pictures =
      options.progressPicture &&
      new ProgressPictures({
        out: options.out,
        drawing: options.progressPicture,
        get: (id) => this.get(id),
        runOf: (runId) => this.run(runId),
        remember: (id, picture) =>
          this.changes.run(id, async () => {
            const record = this.get(id);
            if (record) await this.options.store.save({ ...record, picture });
          }),
        log: options.log,
      });
    options.subagents.onEnded((run) => {
      const tag = run.orchestration;
      if (tag) void this.changes.run(tag.id, () => this.stepEnded(tag.id, run.runId, run));
    });
  }

  /**
   * Checks every step as the run it will become (CLI, agent, policy, the origin's limits)
   * before anything starts: a plan with a step that cannot run is refused, naming the step.
   */
  async create(
    plan: Plan,
    origin: PlanOrigin,
    /** The message that asked for it, which its progress message answers. */
    replyTo?: string,
  ): Promise<{ ok: true; record: OrchestrationRecord } | { ok: false; error: string }> {
    for (const step of plan.steps) {
      const prepared = await this.options.subagents.spawner.prepare(stepIntent(step, step.prompt), origin);
      if (!prepared.ok) return { ok: false, error: `step "${step.id}": ${prepared.error}` };
    }
    const { address } = origin;
    const key = chatKey(address);
    const record: OrchestrationRecord = {
      id: nanoid(10),
      number: this.options.store.nextNumber(key),
      chatKey: key,
      chat: address,
      requester: origin.requester,
      origin: { cwd: origin.cwd, cli: origin.cli, depth: origin.depth, policy: origin.policy },
      plan,
      steps: Object.fromEntries(plan.steps.map((step) => [step.id, { status: 'pending', attempts: 0 } satisfies StepRecord])),
      status: 'running',
      createdAt: Date.now(),
      fromMessage: origin.fromMessage,
    };
    await this.options.store.save(record);
    await this.changes.run(record.id, async () => {
      const ref = isNoChat(address)
        ? undefined
        : await this.options.out.send(address, this.progressText(record), replyTo !== undefined ? { replyTo } : {}).catch(() => undefined);
      if (ref) await this.options.store.save({ ...this.get(record.id)!, progressMessageId: ref.messageId });
      await this.advance(record.id);
    });
    // Right after the progress message, showing the steps just started; outside the lock, so a step's end never waits for it.
    this.pictures?.update(record.id);
    return { ok: true, record: this.get(record.id)! };
  }

  /** No orchestration running, and no picture of one on its way. */
  isIdle(): boolean {
    return !this.options.store.all().some((o) => o.status === 'running') && (this.pictures?.isIdle() ?? true);
  }

  /** Resolves when no orchestration is running and its last picture has landed (the console at the end of its input). */
  async idle(): Promise<void> {
    while (!this.isIdle()) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Stops sweeping; running orchestrations stay saved, and go on after the next start. */
  close(): void {
    this.sweeping?.stop();
  }

  /** The orchestration the /orchestrate of this message (`<chat>#<message id>`) made, if it made one. */
  madeFrom(key: string): OrchestrationRecord | undefined {
    return this.options.store.all().find((o) => o.fromMessage === key);
  }

  get(id: string): OrchestrationRecord | undefined {
    return this.options.store.get(id);
  }

  forChat(key: string): OrchestrationRecord[] {
    return this.options.store.forChat(key);
  }

  find(key: string, ref: string): OrchestrationRecord | undefined {
    const wanted = ref.trim().replace(/^#/, '');
    return this.forChat(key).find((o) => (/^\d+$/.test(wanted) ? o.number === Number(wanted) : o.id === wanted));
  }

  /** Stops a whole orchestration: steps not started are skipped, running ones stopped. */
  async stop(id: string, by: string): Promise<boolean> {
    const running: string[] = [];
    const stopped = await this.changes.run(id, async () => {
      const record = this.get(id);
      if (!record || record.status !== 'running') return false;
      const steps = { ...record.steps };
      for (const [stepId, state] of Object.entries(steps)) {
        if (state.status === 'pending') steps[stepId] = { ...state, status: 'skipped', error: `stopped by ${by}` };
        if (state.status === 'running' && state.runId) running.push(state.runId);
      }
      await this.options.store.save({ ...record, steps, stoppedBy: by });
      if (!running.length) await this.finishIfDone(id);
      return true;
    });
    // Outside the lock: each run's end comes back through stepEnded, which takes it.
    for (const runId of running) await this.options.subagents.registry.stop(runId, by);
    return stopped;
  }

  async stopAll(key: string, by: string): Promise<number> {
    let count = 0;
    for (const record of this.forChat(key)) if (record.status === 'running' && (await this.stop(record.id, by))) count++;
    return count;
  }

  /**
   * After a restart (the registry has recovered its runs): steps whose run ended meanwhile
   * are brought up to date and steps never started start. Ends never announced are the outbox's.
   */
  async start(): Promise<void> {
    const { store, retention } = this.options;
    this.sweeping = every(
      SWEEP_INTERVAL_MS,
      () => store.sweep(Date.now(), retention.ms, retention.perChat),
      (error) => this.options.log.error({ err: error }, 'sweeping finished orchestrations failed'),
    );
    for (const record of this.options.store.all().filter((o) => o.status === 'running')) {
      await this.changes.run(record.id, async () => {
        for (const state of Object.values(this.get(record.id)!.steps)) {
          const run = state.runId ? this.run(state.runId) : undefined;
          if (state.status === 'running' && state.runId && (run?.endedAt || !run)) await this.stepEnded(record.id, state.runId, run);
        }
        await this.advance(record.id);
      });
    }
  }

  /** A step's run ended (`run` undefined: the run is lost altogether). */
  private async stepEnded(id: string, runId: string, run: SubagentRunRecord | undefined): Promise<void> {
    const record = this.get(id);
    const found = record && Object.entries(record.steps).find(([, s]) => s.runId === runId);
    if (!record || !found) return;
    const [stepId, state] = found;
    if (state.status !== 'running') return; // already handled
    let steps: StepStates & Record<string, StepRecord> = { ...record.steps };
    const status = run?.status ?? 'interrupted';
    if (status === 'completed') {
      steps[stepId] = { ...state, status: 'completed', summary: run?.result ?? '' };
    } else if (status === 'interrupted' && state.attempts < MAX_ATTEMPTS && !record.stoppedBy) {
      steps[stepId] = { status: 'pending', attempts: state.attempts, error: 'interrupted by a restart; starting it again' };
    } else {
      const stopped = status === 'stopped' || !!record.stoppedBy;
      steps[stepId] = { ...state, status: stopped ? 'stopped' : 'failed', error: run?.error ?? 'its run was lost' };
      steps = cascade(record.plan, steps, stepId) as typeof steps;
    }
    await this.options.store.save({ ...record, steps });
    await this.advance(record.id);
  }

  /** Starts every ready step; finishes the orchestration when nothing is left. */
  private async advance(id: string): Promise<void> {
    let record = this.get(id)!;
    if (record.status !== 'running') return;
    for (const stepId of record.stoppedBy ? [] : readySteps(record.plan, record.steps)) {
      record = this.get(id)!;
      const state = record.steps[stepId]!;
      // Its prompt carries the results of the steps it depends on.
      const task = promptWithUpstream(record.plan, stepId, record.steps);
      const origin = { address: record.chat, requester: record.requester, ...record.origin, orchestration: { id: record.id, step: stepId } };
      const spawned = await this.options.subagents.spawner.spawn(stepIntent(stepById(record.plan, stepId), task), origin);
      const steps = { ...record.steps };
      if (!spawned.ok) {
        steps[stepId] = { ...state, status: 'failed', error: spawned.error, attempts: state.attempts + 1 };
        await this.options.store.save({ ...record, steps: cascade(record.plan, steps, stepId) as typeof steps });
      } else {
        const { error: _retryNote, ...rest } = state;
        steps[stepId] = { ...rest, status: 'running', runId: spawned.run.runId, runNumber: spawned.run.number, attempts: state.attempts + 1 };
        await this.options.store.save({ ...record, steps });
      }
    }
    await this.finishIfDone(id);
    this.showProgress(id);
  }

  /** The end is saved with its announcement pending in one write, then handed to the outbox. */
  private async finishIfDone(id: string): Promise<void> {
    const record = this.get(id)!;
    if (record.status !== 'running' || !isFinished(record.plan, record.steps)) return;
    const toAgent = record.requester.kind === 'agent' && this.options.announceTo !== 'chat';
    await this.options.store.save({
      ...record,
      status: overallStatus(record.plan, record.steps),
      endedAt: Date.now(),
      delivery: pendingDelivery(toAgent, !isNoChat(record.chat)),
    });
    await this.editProgress(id);
    this.options.announce();
  }

  private showProgress(id: string): void {
    if (this.progressTimers.has(id)) return;
    const wait = Math.max(0, (this.lastProgress.get(id) ?? 0) + PROGRESS_INTERVAL_MS - Date.now());
    const timer = setTimeout(() => {
      this.progressTimers.delete(id);
      void this.editProgress(id);
    }, wait);
    timer.unref();
    this.progressTimers.set(id, timer);
  }

  private async editProgress(id: string): Promise<void> {
    const record = this.get(id);
    if (!record?.progressMessageId) return;
    this.lastProgress.set(id, Date.now());
    const ref = { ...record.chat, messageId: record.progressMessageId };
    const { out, log } = this.options;
    await warnIfFails(out.edit(ref, this.progressText(record)), log, "editing the orchestration's progress", { orchestration: record.id });
    // The picture follows the text, at most as often; the one drawn at the end shows how it ended.
    this.pictures?.update(id);
  }

  /** The progress message's text, as it is now. */
  private progressText(record: OrchestrationRecord): RichText {
    return this.options.progressText(record, (runId) => this.run(runId));
  }

  private run(runId: string): SubagentRunRecord | undefined {
    return this.options.subagents.registry.get(runId);
  }
}
