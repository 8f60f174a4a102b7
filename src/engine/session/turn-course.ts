import type { AgentEvent, QuotaLimit, ResultEvent, Usage, UsageEvent } from '../../kernel/protocols/events.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { CliExit } from '../process/cli-process.ts';
import { TurnLimitWatch } from './turn-clock.ts';
import type { TurnHandlers, TurnLimits, TurnOutcome } from './running-turn.ts';

/** Why a turn ended before its CLI finished it. */
export interface StopReason {
  status: 'stopped' | 'timed_out';
  message: string;
}

/**
 * What a turn keeps, whichever way its CLI runs (Turn, or LiveTurn in a kept CLI): what its
 * events said (its session, its last words, its result), its limits, why the bridge ended it,
 * and its outcome.
 */
export class TurnCourse {
  result: ResultEvent | undefined;
  sessionId: string | undefined;
  lastText = '';
  lastError: string | undefined;
  /** A limit the CLI's errors named (a CLI that ends without a result says it only there). */
  limit: QuotaLimit | undefined;
  /** The model calls its credential proxy metered, by the API's id for each. */
  readonly metered = new Map<string, UsageEvent>();
  stopReason: StopReason | undefined;
  readonly limits: TurnLimitWatch;
  private readonly startedAt = Date.now();

  constructor(
    private readonly cli: string,
    readonly handlers: TurnHandlers,
    limits: TurnLimits,
    private readonly log: Log | undefined,
    /** Ends the turn for the bridge (its CLI's process stopped, or interrupted); resolves once it has ended. */
    private readonly end: () => Promise<void>,
  ) {
    this.limits = new TurnLimitWatch(limits, cli, (reason) => void this.stop(reason));
  }

  /** Ends the turn before its CLI finishes it; the first reason given is the outcome's. */
  stop(reason: StopReason): Promise<void> {
    this.stopReason ??= reason;
    return this.end();
  }

  /** One event of the turn's: progress for its silence, what it says, and to its listener. */
  observe(event: AgentEvent): void {
    this.limits.silence.observe(event);
    this.note(event);
    this.emit(event);
  }

  /** What an event says of the turn (its type read once: see SilenceWatch.observe). */
  note(event: AgentEvent): void {
    switch (event.type) {
      case 'usage':
        if (event.proxy) this.metered.set(event.messageId ?? `#${this.metered.size}`, event);
        return;
      case 'started':
        this.sessionId = event.sessionId;
        return;
      case 'text':
        if (!event.parentId) this.lastText = event.text;
        return;
      case 'error':
        this.lastError = event.message;
        this.limit = event.limit ?? this.limit;
        return;
      case 'result':
        this.result = event;
        this.limit = event.limit ?? this.limit;
        this.sessionId = event.sessionId ?? this.sessionId;
    }
  }

  emit(event: AgentEvent): void {
    safely(this.handlers, this.handlers.onEvent, event, this.log);
  }

  /** The turn is over: its outcome, after the events that close it (its failure, unless an event already said it, then its exit). */
  finish(exit: CliExit, stderr: string): TurnOutcome {
    this.limits.stop();
    const outcome = this.outcome(exit, stderr);
    const { error } = outcome;
    if (outcome.status === 'failed' && error && error !== this.result?.text && error !== this.lastError) this.emit({ type: 'error', message: error });
    this.emit(outcome.exit);
    return outcome;
  }

  /**
   * How the turn went: stopped (or timed out) when the bridge ended it, completed on a result
   * that is no error, otherwise failed, with the most telling words available (the CLI's error,
   * else the end of its stderr).
   */
  private outcome(exit: CliExit, stderr: string): TurnOutcome {
    const { stopReason, cli } = this;
    const metered = meteredTotal(this.metered);
    // The proxy's meter is the truth of what the turn used: the result says the same, so whatever shows or records it agrees.
    const result = this.result && metered ? { ...this.result, usage: metered.usage, costUsd: metered.costUsd ?? this.result.costUsd } : this.result;
    const base = {
      result,
      metered,
      sessionId: this.sessionId,
      exit: { type: 'exit' as const, code: exit.code, signal: exit.signal },
      durationMs: Date.now() - this.startedAt,
      text: result?.text ?? this.lastText,
    };
    if (stopReason) return { ...base, status: stopReason.status, error: stopReason.message };
    if (exit.spawnError) return { ...base, status: 'failed', error: `${cli}: ${exit.spawnError}` };
    if (result && !result.isError) return { ...base, status: 'completed' };
    const limit = this.limit ? { limit: this.limit } : {};
    return { ...base, status: 'failed', error: failure(cli, exit, result, this.lastError ?? lastLines(stderr, 5)), ...limit };
  }
}

/** What the calls the credential proxy metered add up to, or undefined when it metered none; a cost only where one was priced. */
export function meteredTotal(calls: ReadonlyMap<string, UsageEvent>): TurnOutcome['metered'] {
  if (!calls.size) return undefined;
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let costUsd: number | undefined;
  for (const call of calls.values()) {
    for (const kind of Object.keys(usage) as (keyof Usage)[]) usage[kind] += call.usage[kind] ?? 0;
    if (call.proxy?.costUsd !== undefined) costUsd = (costUsd ?? 0) + call.proxy.costUsd;
  }
  return { usage, costUsd };
}

function failure(name: string, exit: { code: number | null; signal: string | null }, result: ResultEvent | undefined, detail: string): string {
  if (result?.isError) return result.text || `${name} reported an error`;
  const how = exit.signal ? `was killed by ${exit.signal}` : exit.code ? `exited with code ${exit.code}` : 'exited without a result';
  return detail ? `${name} ${how}: ${detail}` : `${name} ${how}`;
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

/**
 * A listener's bug must not kill the turn that feeds it: `listener`, when there is one, is
 * called with `value` as a method of `owner` (a class's listener keeps its `this`), with no
 * closure made for the call: this runs for every line and event a CLI prints. The caller names
 * the listener (`handlers.onEvent`): looked up here by a key passed in, it was a generic keyed
 * lookup for every line and event.
 */
export function safely<T>(owner: object, listener: ((value: T) => void) | undefined, value: T, log: Log | undefined): void {
  if (!listener) return;
  try {
    listener.call(owner, value);
  } catch (error) {
    if (log) log.error({ err: error }, 'a listener of the turn failed');
    else console.error('a listener of the turn failed:', error);
  }
}
