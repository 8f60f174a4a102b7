import type { Adapter } from '../adapters/load.ts';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildArgv, promptVia, type TurnFiles, type TurnSpec } from '../adapters/argv.ts';
import { UnsupportedOptionError } from '../../kernel/errors/unsupported-option-error.ts';
import { untrustedConfigFound } from '../adapters/untrusted-files.ts';
import { MCP_TOKEN_VARIABLE, wantedOptions } from '../adapters/turn-options.ts';
import type { BatchedOutput } from '../process/batched-output.ts';
import { CliProcess, type CliExit } from '../process/cli-process.ts';
import { turnWalls, type WallScope } from '../sandbox/wall-scope.ts';
import { agentReadableFolder, writeAgentFile } from '../process/agent-space.ts';
import type { CliLine } from '../process/lines.ts';
import type { AgentEvent, BlockedEvent, ExitEvent, QuotaLimit, ResultEvent, Usage, UsageEvent } from '../../kernel/protocols/events.ts';
import { LineDecoder } from '../../kernel/protocols/line-decoder.ts';
import { decoders, inputEncoders } from '../../kernel/protocols/index.ts';
import { LiveInput, type SteeredMessage } from './live-input.ts';
import { TurnLimitWatch } from './turn-clock.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { credentialVariables } from '../sandbox/model-api-access.ts';

export type TurnStatus = 'completed' | 'failed' | 'stopped' | 'timed_out';

export interface TurnOutcome {
  status: TurnStatus;
  /** The answer (on failure: whatever the agent said before failing). */
  text: string;
  /** Why the turn did not complete, in words a user can act on. */
  error?: string;
  result?: ResultEvent;
  /** The CLI's session id, to resume next turn. */
  sessionId?: string;
  exit: ExitEvent;
  durationMs: number;
  /** Something the chat should know about how the turn ran (its old session was gone, say). */
  notice?: string;
  /** It failed for its CLI's quota, credit or rate limit: the work can go on in another CLI, or once the limit resets. */
  limit?: QuotaLimit;
  /**
   * What its model calls used and cost as the credential proxy metered them (a CLI in walls
   * holding no key): the turn's cost, whatever the CLI says (the result carries the same).
   */
  metered?: { usage: Usage; costUsd?: number };
}

export interface TurnHandlers {
  /** Every decoded event, in order; `exit` is always the last. */
  onEvent?: (event: AgentEvent) => void;
  /** Every raw stdout line, for run logs. */
  onLine?: (raw: string) => void;
  /**
   * Messages sent into the turn (`send`) that the CLI takes, after the turn's answer, as a
   * turn of its own (a live CLI they reached after its result): the turn ends with its own
   * answer, and `follow` starts following that turn with its handlers. Without this handler
   * the turn lasts until they are answered too, and the last answer is its own.
   */
  onCarried?: (ids: string[], follow: (handlers: TurnHandlers, limits: TurnLimits) => RunningTurn) => void;
  /**
   * Messages sent into the turn that its CLI turned out unable to take while it works (they
   * were held until it showed whether it names them): they go as a turn of their own. Without
   * this handler such a message is refused at once while the CLI has not shown it.
   */
  onUnsteered?: (messages: SteeredMessage[]) => void;
}

/** How long a turn may run, and how long its CLI may show no progress of the model. */
export interface TurnLimits {
  /** Stop the turn after this long and report it as timed out. */
  timeoutMs?: number;
  /** End the turn when its CLI shows no progress of the model this long (see SilenceWatch). */
  silenceMs?: number;
}

/** A turn under way, whichever way its CLI runs: one process for the turn (Turn), or one kept between turns (LiveCli). */
export interface RunningTurn {
  readonly done: Promise<TurnOutcome>;
  /** A message for the CLI while it works (within its turn if it has more to do, else as the one after); false when it takes no more (send it as a turn). */
  send(text: string, id: string): boolean;
  stop(reason: string): Promise<void>;
  holdTimeout(): () => void;
  /** Messages sent to it that the CLI has not started on: what a stop drops. */
  readonly untaken: number;
  /** Whether its CLI names the messages it is sent back (undefined: not known yet, or it takes none while it works). */
  readonly namesMessages?: boolean | undefined;
}

export interface TurnRun extends TurnLimits {
  adapter: Adapter;
  spec: TurnSpec;
  cwd: string;
  /** The environment CLIs run with (normally the bridge's own: API keys pass through). */
  env: Record<string, string | undefined>;
  graceMs?: number;
  /** Read the CLI's output in batches (background runs, where nobody waits for each line; see CliLaunch). */
  output?: BatchedOutput;
  /** Where a listener's bug is reported (it never stops the turn). */
  log?: Log;
  /** Whose walls its CLI runs in when the sandbox is on (read at each turn: `safe` makes the directory read-only). */
  walls?: WallScope;
}

/**
 * A turn whose CLI runs here, in a process of its own (Turn) or in one kept between turns
 * (LiveTurn), as against one on a worker: what it answers alike, through its course, and
 * through its input where its CLI reads messages while it works.
 */
export abstract class LocalTurn implements RunningTurn {
  abstract readonly done: Promise<TurnOutcome>;
  protected abstract readonly course: TurnCourse;
  protected abstract readonly input: LiveInput | undefined;

  send(text: string, id: string): boolean {
    return this.input?.send(text, id) ?? false;
  }

  get untaken(): number {
    return this.input?.untaken ?? 0;
  }

  get namesMessages(): boolean | undefined {
    return this.input?.namesMessages;
  }

  /** Ends the turn (its CLI's whole process group stopped, or a kept CLI interrupted); the outcome becomes `stopped` with this reason. */
  stop(reason: string): Promise<void> {
    return this.course.stop({ status: 'stopped', message: reason });
  }

  /** Pauses the timeout while the turn waits on a person (see TurnLimitWatch). */
  holdTimeout(): () => void {
    return this.course.limits.hold();
  }
}

/**
 * One turn: start the CLI, decode its lines into events, and decide the outcome. Never
 * throws for anything the CLI does; the outcome says what happened.
 */
export class Turn extends LocalTurn {
  readonly done: Promise<TurnOutcome>;
  private readonly process: CliProcess;
  /** What its events (and its walls') said so far, its limits, and why the bridge ended it. */
  protected readonly course: TurnCourse;
  /** The turn's own owner-only folder, for what its CLI reads from files (a large prompt, agents): gone with the turn. */
  private readonly folder: string | undefined;
  /** Messages for a CLI that reads them while it works (spec.liveInput); the prompt was the first. */
  protected readonly input: LiveInput | undefined;

  constructor(
    private readonly run: TurnRun,
    handlers: TurnHandlers = {},
  ) {
    super();
    // A host its sandbox refused shows in the turn's progress, as its steps do; a model call its credential proxy metered is the turn's cost.
    const started = startCli(
      run,
      'turn',
      (files) => buildArgv(run.adapter, run.spec, files),
      (event) => {
        this.course.note(event);
        this.course.emit(event);
      },
    );
    this.process = started.process;
    this.folder = started.folder;
    this.course = new TurnCourse(run.adapter.name, handlers, run, run.log, () => this.process.stop(run.graceMs));
    if (started.via === 'live') {
      const encode = inputEncoders[run.adapter.protocol]!;
      this.input = new LiveInput(
        { send: (text, id) => this.process.writeInput(encode(text, id)), end: () => this.process.endInput() },
        { unsteered: handlers.onUnsteered },
      );
      this.input.send(run.spec.prompt, randomUUID());
    }
    this.done = this.drive();
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  private async drive(): Promise<TurnOutcome> {
    const { adapter, log } = this.run;
    const decoder = new LineDecoder(decoders[adapter.protocol]!);
    const { course, input } = this;
    const { handlers } = course;
    // Runs for every line the CLI prints: no closure per line or event.
    const onLine = (line: CliLine) => {
      safely(handlers, handlers.onLine, line.raw, log);
      const events = decoder.decode(line.raw, line.json);
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!;
        course.observe(event);
        input?.observe(event);
      }
    };
    await this.process.readLines(onLine).catch((error: Error) => {
      course.lastError = `reading ${adapter.name}'s output failed: ${error.message}`;
    });
    const exit = await this.process.exited;
    input?.close();
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    return course.finish(exit, this.process.stderrTail());
  }
}

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

const TURN_FILE_NAMES: Record<keyof TurnFiles, string> = { promptFile: 'prompt.md', agentsFile: 'agents.json' };

/**
 * A CLI's process, for one turn (a prompt in `spec`) or for as long as it is kept: refused in
 * an untrusted directory holding configuration it would act on; the files its command line
 * names (a large prompt, agents) in an owner-only folder of its own (`folder`, the caller's to
 * remove), readable by the CLI's user only; the MCP secret in its environment, never on its
 * command line; in the session's walls, with that folder and `readable` shown, what they
 * refuse and meter `report`ed. `via`: how the prompt goes (`live`: on its open input).
 */
export function startCli(
  run: Pick<TurnRun, 'adapter' | 'cwd' | 'env' | 'walls' | 'output'> & { spec: Omit<TurnSpec, 'prompt'> & { prompt?: string } },
  kind: 'turn' | 'live',
  argv: (files: TurnFiles) => string[],
  report: (event: BlockedEvent | UsageEvent) => void,
  readable?: string,
): { process: CliProcess; folder: string | undefined; via: ReturnType<typeof promptVia> } {
  const { adapter, spec, cwd, env } = run;
  const unsafe = spec.trusted ? undefined : untrustedConfigFound(adapter, cwd, env.HOME);
  if (unsafe) throw new UnsupportedOptionError(unsafe);
  const via = spec.prompt === undefined ? 'live' : promptVia(adapter, { prompt: spec.prompt, liveInput: spec.liveInput });
  const contents: Partial<Record<keyof TurnFiles, string>> = {
    ...(via === 'file' ? { promptFile: spec.prompt } : {}),
    ...(wantedOptions(spec).includes('agents') && adapter.options.agents ? { agentsFile: JSON.stringify(spec.agents) } : {}),
  };
  const folder = Object.keys(contents).length ? agentReadableFolder(kind) : undefined;
  let args: string[];
  try {
    const files: TurnFiles = {};
    for (const [key, content] of Object.entries(contents) as [keyof TurnFiles, string][]) {
      files[key] = join(folder!, TURN_FILE_NAMES[key]);
      writeAgentFile(files[key], content);
    }
    args = argv(files);
  } catch (error) {
    if (folder) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const child = new CliProcess({
    command: adapter.resolvedCommand,
    args,
    ...(via === 'stdin' ? { input: spec.prompt } : via === 'live' ? { openInput: true } : {}),
    cwd,
    env: { ...env, ...adapter.env, ...(spec.mcp ? { [MCP_TOKEN_VARIABLE]: spec.mcp.token } : {}) },
    keys: credentialVariables([adapter.walls.modelApi]),
    output: run.output,
    walls: turnWalls(run.walls, spec.mcp, [folder, readable], report, adapter.walls),
  });
  return { process: child, folder, via };
}
