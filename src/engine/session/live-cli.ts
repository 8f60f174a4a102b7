import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Adapter } from '../adapters/load.ts';
import { buildArgv, buildLiveArgv, type TurnSpec } from '../adapters/argv.ts';
import { liveDialect } from '../adapters/live.ts';
import { UnsupportedOptionError } from '../../kernel/errors/unsupported-option-error.ts';
import type { CliProcess, CliExit } from '../process/cli-process.ts';
import type { CliLine } from '../process/lines.ts';
import type { AgentEvent, ControlEvent, PermissionDecision, PermissionEvent } from '../../kernel/protocols/events.ts';
import { LineDecoder } from '../../kernel/protocols/line-decoder.ts';
import type { AgentCommand, LiveWire, WireSession } from '../../kernel/protocols/index.ts';
import type { HandedMessages } from './live-input.ts';
import { LiveTurn } from './live-turn.ts';
import { ProcessMessages } from './process-messages.ts';
import { delay } from '../../kernel/concurrency/delay.ts';
import { wallsUp } from '../sandbox/walls.ts';
import { startCli, type TurnRun } from './turn.ts';
import type { RunningTurn, TurnHandlers, TurnLimits } from './running-turn.ts';
import { safely } from './turn-course.ts';
import { MCP_RELAY_SCRIPT, mcpOverStdio } from './mcp-stdio-relay.ts';

/** What a live CLI starts with: everything a turn has but its prompt and its limits. */
export type LiveLaunch = Pick<TurnRun, 'adapter' | 'cwd' | 'env' | 'graceMs' | 'log' | 'walls'> & {
  spec: Omit<TurnSpec, 'prompt' | 'liveInput' | 'permissions'>;
  /** The chat's permission mode, for a CLI that is given it when its session opens (codex's sandbox). */
  mode: WireSession['mode'];
};

/** A permission request, with the tool call's own input where the request carries less (ExitPlanMode's plan). */
export interface PermissionRequest extends PermissionEvent {
  callInput?: unknown;
}

/** Decides a permission request of the turn at work; `signal` aborts when the turn ends, `hold` pauses its timeout. */
export type PermissionAnswerer = (request: PermissionRequest, turn: { signal: AbortSignal; hold(): () => void }) => Promise<PermissionDecision>;

/** How long an interrupted CLI has to end its turn before its process is stopped instead. */
export const INTERRUPT_GRACE_MS = 5000;

/**
 * What a live CLI's command line depends on, beside the session it continues: a turn whose
 * key differs needs a new process (a new model, mode, directory, agents, tools).
 */
export function liveLaunchKey(launch: Pick<LiveLaunch, 'adapter' | 'spec' | 'cwd' | 'mode' | 'walls'>): string {
  const { adapter, spec } = launch;
  const agents = spec.agents && createHash('sha256').update(JSON.stringify(spec.agents)).digest('hex');
  const files = agents ? { agentsFile: agents } : {};
  // A CLI that cannot stay up (kept elsewhere, a process per turn): its one-shot command line.
  const argv = liveDialect(adapter)
    ? buildLiveArgv(adapter, { ...spec, resumeId: undefined }, files)
    : buildArgv(adapter, { ...spec, prompt: '', resumeId: undefined }, files);
  // A CLI given the mode as its session opens (a `live` program) needs a new process for another;
  // so does one in walls, which starts each mode afresh from the operator's configuration.
  // Its walls are part of its command line: a directory made read-only needs a new process.
  return JSON.stringify([adapter.name, launch.cwd, argv, adapter.live || launch.walls ? launch.mode : undefined, launch.walls?.readOnly ?? false]);
}

/**
 * A CLI process kept between a chat's turns (Claude Code with `--input-format stream-json`
 * and its stdio control channel, codex's app server): each turn is a message on its input, a
 * message sent while it works steers the turn, an interrupt ends a turn and keeps the
 * process, and the bridge answers its permission requests. Its dialect's wire says how each
 * is written. One turn at a time; the session continues in the process.
 */
export class LiveCli {
  readonly key: string;
  readonly adapter: Adapter;
  readonly exited: Promise<CliExit>;
  /** Whether the process still runs and takes turns. */
  isAlive = true;
  /** The CLI session the process continues: the one it resumed, or the one it named. */
  sessionId: string | undefined;
  lastUsed = Date.now();
  private readonly process: CliProcess;
  private readonly wire: LiveWire;
  private readonly decoder: LineDecoder;
  private turn: LiveTurn | undefined;
  private planning = false;
  /** What the process has cost so far: the CLI reports its whole life's cost with each result. */
  private costSoFar = 0;
  /** The input of each tool call of the turn, by its id: a permission request may carry less. */
  private readonly calls = new Map<string, unknown>();
  private readonly requests = new Map<string, (event: ControlEvent) => void>();
  /** What the process has been sent, and whether it names messages back (only then is it steered). */
  readonly messages: ProcessMessages;

  constructor(
    private readonly launch: LiveLaunch,
    private readonly answer: PermissionAnswerer,
  ) {
    const { adapter, spec, cwd } = launch;
    const dialect = liveDialect(adapter);
    if (!dialect) throw new UnsupportedOptionError(`${adapter.name} cannot stay up between turns`);
    const relay = dialect.offersMcp && spec.mcp ? mcpOverStdio(spec.mcp) : undefined;
    // A host its sandbox refused shows in the progress of the turn at work; a model call its credential proxy metered is that turn's cost.
    // The MCP relay is shown too, for a dialect that may offer the bridge's MCP server over stdio: it runs inside.
    const started = startCli(
      launch,
      'live',
      (files) => buildLiveArgv(adapter, spec, files),
      (event) => this.handle(event),
      relay && MCP_RELAY_SCRIPT,
    );
    // Its own owner-only folder, for the files its command line names (agents): gone with the process.
    const { folder } = started;
    this.process = started.process;
    this.adapter = adapter;
    this.key = liveLaunchKey(launch);
    this.sessionId = spec.resumeId;
    this.messages = new ProcessMessages(dialect.namesMessages);
    this.decoder = new LineDecoder(dialect.decoder);
    const reading = this.process
      .readLines((line) => this.onLine(line))
      .catch((error: Error) => {
        this.turn?.course.note({ type: 'error', message: `reading ${adapter.name}'s output failed: ${error.message}` });
      });
    this.exited = Promise.all([reading, this.process.exited]).then(([, exit]) => {
      this.isAlive = false;
      if (folder) rmSync(folder, { recursive: true, force: true });
      this.turn?.end(exit, this.process.stderrTail());
      for (const settle of this.requests.values()) settle({ type: 'control', requestId: '', ok: false, error: 'the CLI exited' });
      return exit;
    });
    this.wire = dialect.wire(
      {
        write: (line) => this.isAlive && this.process.writeInput(line),
        emit: (event) => this.handle(event),
        warn: (line) => this.launch.log?.warn(`${adapter.name}: ${line}`),
      },
      {
        resumeId: spec.resumeId,
        cwd,
        mode: launch.mode,
        walled: wallsUp(),
        ...(spec.mcp ? { mcp: { serverName: spec.mcp.serverName, url: spec.mcp.url, token: spec.mcp.token, stdio: relay } } : {}),
        authMethod: adapter.live?.authMethod,
        ...(adapter.live?.openTimeoutSeconds ? { openTimeoutMs: adapter.live.openTimeoutSeconds * 1000 } : {}),
      },
    );
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** Whether the process names messages back: undefined until its output shows it. */
  get namesMessages(): boolean | undefined {
    return this.messages.names;
  }

  /** The agent's own slash commands, as its wire last heard them. */
  get agentCommands(): readonly AgentCommand[] {
    return this.wire.commands ?? [];
  }

  /** Starts a turn of `prompt`; `planning`: in plan mode (the agent proposes, and waits for approval before it changes anything). */
  startTurn(prompt: string, handlers: TurnHandlers, options: TurnLimits & { planning?: boolean } = {}): RunningTurn {
    if (this.turn) throw new Error('the live CLI is already running a turn');
    this.lastUsed = Date.now();
    const planning = options.planning ?? false;
    if (planning !== this.planning && this.isAlive && this.wire.setPlanning) {
      // Written before the prompt: the CLI reads its input in order.
      this.wire.setPlanning(randomUUID(), planning);
      this.planning = planning;
    }
    this.calls.clear();
    const turn = this.follow(handlers, options);
    if (!turn.send(prompt, randomUUID())) turn.end({ code: null, signal: null }, 'its input is closed');
    return turn;
  }

  /**
   * `from` ended at its answer, and the CLI takes `handed` (sent into it, they reached it after
   * that answer) as a turn of its own: that turn is the one at work from now on, followed as
   * `from`'s handlers say, so its events and its answer go to those messages and never to the
   * turn the bridge starts next.
   */
  carry(from: LiveTurn, handed: HandedMessages): void {
    let followed = false;
    const follow = (handlers: TurnHandlers, limits: TurnLimits) => {
      followed = true;
      return this.follow(handlers, limits, handed);
    };
    safely(from.course.handlers, (ids: string[]) => from.course.handlers.onCarried?.(ids, follow), handed.ids, this.launch.log);
    // A follower that failed: still the CLI's turn at work, whose answer goes to no other turn.
    if (!followed) this.follow({}, {}, handed);
  }

  /** A turn from now on the one at work: its events are the CLI's until it ends. */
  private follow(handlers: TurnHandlers, limits: TurnLimits, handed?: HandedMessages): LiveTurn {
    const turn = new LiveTurn(this, handlers, limits, this.launch.log, handed);
    this.turn = turn;
    void turn.done.then(() => {
      if (this.turn === turn) this.turn = undefined;
      this.lastUsed = Date.now();
    });
    return turn;
  }

  /** Ends the turn at work through the CLI's own interrupt; stops the process if it does not end the turn in time. */
  async interrupt(turn: LiveTurn): Promise<void> {
    if (!this.isAlive || this.turn !== turn) return turn.done.then(() => {});
    // Messages it has not taken would run as its next turn, before the bridge could stop it:
    // the stop drops them with the process, and the session resumes in a new one.
    if (turn.untaken) return this.stopProcess().then(() => turn.done.then(() => {}));
    const requestId = randomUUID();
    const answered = new Promise<ControlEvent>((resolve) => this.requests.set(requestId, resolve));
    this.wire.interrupt(requestId);
    void answered.then((event) => {
      // Messages it still holds would run as the next turn: a stop drops them, with the process.
      if (event.stillQueued?.length) void this.stopProcess();
    });
    const ended = await Promise.race([turn.done.then(() => true), delay(INTERRUPT_GRACE_MS).then(() => false)]);
    if (!ended) await this.stopProcess();
    await turn.done;
  }

  /** One message (a turn's prompt, or a steer) to the CLI's input; false when the process is gone. */
  sendMessage(text: string, id: string): boolean {
    return this.isAlive && this.wire.send(text, id);
  }

  /** Closes the process: its input ends, and one that does not exit in time is stopped. */
  async close(): Promise<void> {
    if (!this.isAlive) return this.exited.then(() => {});
    this.process.endInput();
    const exited = await Promise.race([this.exited.then(() => true), delay(INTERRUPT_GRACE_MS).then(() => false)]);
    if (!exited) await this.stopProcess();
  }

  /** Stops the whole process group (SIGTERM, grace, SIGKILL): the session resumes in a new process. */
  async stopProcess(): Promise<void> {
    await this.process.stop(this.launch.graceMs);
    await this.exited;
  }

  private onLine(line: CliLine): void {
    const turn = this.turn;
    if (turn) safely(turn.course.handlers, turn.course.handlers.onLine, line.raw, this.launch.log);
    if (this.wire.take(line.json)) return;
    for (const decoded of this.decoder.decode(line.raw, line.json)) this.handle(decoded);
  }

  /** One event of the CLI's, decoded or learned by the wire. */
  private handle(decoded: AgentEvent): void {
    const event = this.perTurn(decoded);
    if (event.type === 'started') this.sessionId = event.sessionId;
    else if (event.type === 'tool_start') this.calls.set(event.id, event.input);
    else if (event.type === 'permission') void this.onPermission(event);
    else if (event.type === 'control') this.settleRequest(event);
    if (event.type === 'result' && event.sessionId) this.sessionId = event.sessionId;
    this.turn?.observe(event);
  }

  /** The answer to one of the bridge's control requests: its waiter, once. */
  private settleRequest(event: ControlEvent): void {
    const settle = this.requests.get(event.requestId);
    this.requests.delete(event.requestId);
    settle?.(event);
  }

  /** A result's cost is the process's whole life's so far: each turn's is what it added. */
  private perTurn(event: AgentEvent): AgentEvent {
    if (event.type !== 'result' || event.costUsd === undefined) return event;
    const added = Math.max(0, event.costUsd - this.costSoFar);
    this.costSoFar = event.costUsd;
    return { ...event, costUsd: added };
  }

  private async onPermission(event: PermissionEvent): Promise<void> {
    const turn = this.turn;
    let decision: PermissionDecision;
    if (!turn) decision = { behavior: 'deny', message: 'No turn is running.' };
    else {
      const release = turn.holdTimeout();
      try {
        decision = await this.answer(
          { ...event, ...(event.toolUseId && this.calls.has(event.toolUseId) ? { callInput: this.calls.get(event.toolUseId) } : {}) },
          { signal: turn.ended.signal, hold: () => turn.holdTimeout() },
        );
      } catch (error) {
        decision = { behavior: 'deny', message: `The bridge could not decide: ${(error as Error).message}` };
      } finally {
        release();
      }
    }
    // Approving a plan ends plan mode in the CLI itself.
    if (decision.behavior === 'allow' && event.tool === PLAN_TOOL) this.planning = false;
    if (this.isAlive) this.wire.decide(event.requestId, decision);
  }
}

/** The tool a CLI in plan mode calls with its plan. */
export const PLAN_TOOL = 'ExitPlanMode';
