import { randomUUID } from 'node:crypto';
import type { LiveProcess, LiveTurnOptions } from '../../engine/session/session-config.ts';
import { liveLaunchKey, type LiveLaunch, type PermissionAnswerer } from '../../engine/session/live-cli.ts';
import type { RunningTurn, TurnHandlers, TurnOutcome } from '../../engine/session/running-turn.ts';
import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { formatHostRule } from '../../engine/sandbox/host-rules.ts';
import type { SessionAsk, SessionLaunch } from './session-protocol.ts';
import { ProcessMessages } from '../../engine/session/process-messages.ts';
import type { CliAgents } from '../../engine/agents/cli-agents.ts';

/** What a session's kept CLI on a worker asks of the bridge's side of the queue (RemoteSessions). */
export interface RemoteSide {
  /** Runs the turn on the session's worker (placing it first), following it until it ends wherever it goes. */
  run(turn: RemoteTurn): void;
  stop(turn: RemoteTurn, reason: string): void;
  /** An ask of the session's worker (a steer; a close: its process closes, and its session resumes there, or elsewhere, in a new one). */
  ask(sessionKey: string, ask: SessionAsk): Promise<void>;
  /** The worker the session is placed on now. */
  workerOf(sessionKey: string): string | undefined;
}

/**
 * A session's kept CLI when it lives on a worker: turns, steering and stops go to the worker
 * through the signed queue traffic, and events, permission requests and answers come back on
 * the session's report stream. To the session it is a LiveCli like any other.
 */
export class RemoteLiveCli implements LiveProcess {
  readonly key: string;
  /** The CLI session it continues: the one it resumes, then the one its CLI names. */
  sessionId: string | undefined;
  private turn: RemoteTurn | undefined;
  lastUsed = Date.now();
  isAlive = true;
  /** What its CLI has been sent, and whether it names messages back, as its events show. */
  readonly messages = new ProcessMessages();

  constructor(
    readonly sessionKey: string,
    readonly launch: LiveLaunch,
    readonly answer: PermissionAnswerer,
    readonly side: RemoteSide,
  ) {
    this.key = liveLaunchKey(launch);
    this.sessionId = launch.spec.resumeId;
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  get where(): string | undefined {
    return this.side.workerOf(this.sessionKey);
  }

  /** What the worker starts the CLI with: the launch less what is this machine's own (its environment, adapter, log). */
  describe(resumeId: string | undefined): SessionLaunch {
    const { adapter, spec, cwd, mode, graceMs, walls } = this.launch;
    const { mcp, agents, ...rest } = spec;
    // The operator's MCP servers go by name: the worker configures them from its own file.
    const agentMcpServers: Record<string, string[]> = {};
    const bareAgents: CliAgents = {};
    for (const [slug, { mcpServers: inline, ...agent }] of Object.entries(agents ?? {})) {
      bareAgents[slug] = agent;
      if (inline) agentMcpServers[slug] = inline.flatMap((server) => Object.keys(server));
    }
    return {
      cli: adapter.name,
      spec: {
        ...rest,
        resumeId,
        ...(agents ? { agents: bareAgents } : {}),
        ...(mcp ? { mcp: { url: mcp.url, serverName: mcp.serverName, token: mcp.token } } : {}),
      },
      ...(Object.keys(agentMcpServers).length ? { agentMcpServers } : {}),
      cwd,
      mode,
      graceMs,
      // The worker's sandbox decides whether there are walls; the chat decides whose and what they let through.
      ...(walls ? { walls: { home: walls.home, readOnly: walls.readOnly === true, netAllow: (walls.egress?.allow?.() ?? []).map(formatHostRule) } } : {}),
    };
  }

  startTurn(prompt: string, handlers: TurnHandlers, options: LiveTurnOptions = {}): RunningTurn {
    if (this.turn) throw new Error('the live CLI is already running a turn');
    this.lastUsed = Date.now();
    const turn = new RemoteTurn(this, prompt, handlers, options);
    this.messages.sent(turn.id);
    this.turn = turn;
    void turn.done.then((outcome) => {
      if (outcome.sessionId) this.sessionId = outcome.sessionId;
      if (this.turn === turn) this.turn = undefined;
      this.lastUsed = Date.now();
    });
    this.side.run(turn);
    return turn;
  }

  /** Whether its CLI names messages back, as its events show (only then is it steered). */
  get namesMessages(): boolean | undefined {
    return this.messages.names;
  }

  async close(): Promise<void> {
    if (!this.isAlive) return;
    this.isAlive = false;
    await this.side.ask(this.sessionKey, { type: 'close' });
  }
}

/** A turn of a session's CLI on a worker, as the bridge follows it: the same turn through a move to another worker. */
export class RemoteTurn implements RunningTurn {
  readonly done: Promise<TurnOutcome>;
  /** The id its worker knows it by now (a move gives it a new one). */
  id: string = randomUUID();
  readonly ended = new AbortController();
  private settle!: (outcome: TurnOutcome) => void;
  private readonly startedAt = Date.now();
  /** Why it was stopped, once it was. */
  stopReason: string | undefined;

  constructor(
    readonly cli: RemoteLiveCli,
    readonly prompt: string,
    readonly handlers: TurnHandlers,
    readonly options: LiveTurnOptions,
  ) {
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  get isOver(): boolean {
    return this.ended.signal.aborted;
  }

  readonly untaken = 0;

  get namesMessages(): boolean | undefined {
    return this.cli.messages.names;
  }

  send(text: string, id: string): boolean {
    // Only into a CLI that names messages back (ProcessMessages); its worker's refuses the rest the same way.
    if (this.isOver || this.cli.messages.names !== true) return false;
    this.cli.messages.sent(id);
    void this.cli.side.ask(this.cli.sessionKey, { type: 'steer', turnId: this.id, text, id });
    return true;
  }

  async stop(reason: string): Promise<void> {
    if (this.isOver) return;
    this.stopReason = reason;
    this.cli.side.stop(this, reason);
    await this.done;
  }

  holdTimeout(): () => void {
    // The turn's clock runs on its worker, which holds it while the bridge answers a request.
    return () => {};
  }

  /** One of the CLI's events, from its worker. */
  observe(event: AgentEvent): void {
    this.cli.messages.observe(event);
    if (event.type === 'started') this.cli.sessionId = event.sessionId;
    try {
      // A host its worker's walls refused is the chat's to know, as from its own walls here: the audit trail too.
      if (event.type === 'blocked') this.cli.launch.walls?.egress?.onBlocked?.(event.host, event.why);
      this.handlers.onEvent?.(event);
    } catch {
      // A listener's bug never stops the turn (as with a local CLI).
    }
  }

  /** A raw line of its CLI's output, from its worker (a run's log). */
  line(raw: string): void {
    try {
      this.handlers.onLine?.(raw);
    } catch {
      // As with an event: a listener's bug never stops the turn.
    }
  }

  end(outcome: TurnOutcome): void {
    if (this.isOver) return;
    this.ended.abort();
    this.settle(outcome);
  }

  /** It ended without its worker's outcome: stopped before it ran, or it could not run. */
  endWithout(status: TurnOutcome['status'], error: string): void {
    this.end({ status, text: '', error, exit: { type: 'exit', code: null, signal: null }, durationMs: Date.now() - this.startedAt });
  }
}
