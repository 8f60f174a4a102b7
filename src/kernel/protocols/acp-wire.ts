import * as acp from '@agentclientprotocol/sdk';
import {
  ACP_IDLE,
  ACP_READING_KINDS,
  acpPermissionTool,
  acpToolInput,
  acpToolName,
  acpTurnEnd,
  acpUpdate,
  type AcpStep,
  type AcpTurnState,
} from './acp-updates.ts';
import { delay } from '../concurrency/delay.ts';
import { isObject, num, str } from './decoder.ts';
import type { AgentEvent, PermissionDecision, Usage } from './events.ts';
import type { AgentCommand, LiveWire, LiveWireFactory, WireIo, WireSession } from './live-wire.ts';

/** The ids agents give the mode in which they read and plan but change nothing (Gemini CLI's, Qwen Code's and Claude's `plan`). */
const READ_ONLY_MODES: ReadonlySet<string> = new Set(['plan', 'read-only', 'readonly']);

/** The modes in which agents ask before they change anything (Gemini CLI's, Qwen Code's and Claude's `default`, Copilot's `agent`). */
const ASKING_MODES: ReadonlySet<string> = new Set(['default', 'agent']);

/** A mode's name: the end of its id (Copilot names its modes by URL, `…/session-modes#plan`). */
const modeName = (id: string): string => id.slice(Math.max(id.lastIndexOf('#'), id.lastIndexOf('/')) + 1).toLowerCase();

/**
 * A session update as the agent sent it, under a name of the bridge's own
 * (an extension method's, which the SDK passes to its handler as it is). The SDK checks each
 * `session/update` against its zod schema, for session helpers the bridge does not use, making
 * and dropping an issue for every field left out: about 25 µs an update, twenty times what a
 * JSONL dialect's decoding of a line costs. The updates' reducer reads every field as a
 * decoder does, taking nothing on trust.
 */
const UPDATE_AS_SENT = '_jsonl_bridge/session_update';
const AS_SENT = { parse: (params: unknown): { update: unknown } => ({ update: isObject(params) ? params.update : undefined }) };

/** How long an agent has to answer `initialize` and open its session before its turns fail. */
export const ACP_OPEN_TIMEOUT_MS = 30_000;

/**
 * How long a loaded session's replay of its past may pause before it is taken as done: Gemini
 * CLI answers `session/load` first and replays after, which would otherwise run into the turn.
 */
const REPLAY_QUIET_MS = 300;

type Outcome = acp.RequestPermissionResponse['outcome'];

/** A permission request the chat has yet to answer: its options, and how to answer it. */
interface Asked {
  options: acp.PermissionOption[];
  answer(outcome: Outcome): void;
}

/**
 * The bridge as an ACP client (the Agent Client Protocol, JSON-RPC on the agent's stdio),
 * through the SDK: `initialize` (no `fs/*`, no `terminal/*`: the agent runs its tools itself,
 * in the walls), then the session opened once (`session/load` of the one to continue where
 * the agent offers it, else `session/new`) in the chat's directory with the bridge's MCP
 * server (over http, else over stdio through the bridge's relay); a message is a
 * `session/prompt`, its answer's stop reason the result. ACP names no message back, so a
 * message is never sent into a running prompt (the bridge queues it, as for any CLI that
 * cannot be steered). Stop is `session/cancel`, and the session stays.
 */
export const acpWire: LiveWireFactory = (io, session) => new AcpClient(io, session);

class AcpClient implements LiveWire {
  private readonly connection: acp.ClientConnection;
  private incoming!: ReadableStreamDefaultController<acp.AnyMessage>;
  private session: string | undefined;
  /** Why the session could not be opened: every turn fails with it. */
  private failed: string | undefined;
  /** A prompt is at work: no other is sent until it is answered. */
  private prompting = false;
  /** A cancel was sent for the prompt at work: permission requests are answered `cancelled`. */
  private cancelling = false;
  private state: AcpTurnState = ACP_IDLE;
  private readonly waiting: (() => void)[] = [];
  private readonly asked = new Map<string, Asked>();
  private nextAsk = 1;
  /** When the agent last updated the session: a loaded one's replay is over once it goes quiet. */
  private lastUpdateAt = 0;
  commands: readonly AgentCommand[] = [];

  constructor(
    private readonly io: WireIo,
    private readonly wire: WireSession,
  ) {
    const readable = new ReadableStream<acp.AnyMessage>({ start: (controller) => void (this.incoming = controller) });
    const writable = new WritableStream<acp.AnyMessage>({ write: (message) => void io.write(JSON.stringify(message)) });
    this.connection = acp
      .client({ name: 'jsonl-bridge' })
      .onNotification(UPDATE_AS_SENT, AS_SENT, ({ params }) => this.update(params.update))
      .onRequest('session/request_permission', ({ params }) => this.permission(params))
      .connect({ readable, writable });
    void this.open();
  }

  take(line: unknown): boolean {
    if (!isObject(line) || line.jsonrpc !== '2.0') return false;
    // Renamed on its way in, in order with the rest: see UPDATE_AS_SENT.
    const message = line.method === 'session/update' ? { ...line, method: UPDATE_AS_SENT } : line;
    this.incoming.enqueue(message as acp.AnyMessage);
    return true;
  }

  send(text: string, id: string): boolean {
    if (this.failed) {
      const failed: AgentEvent = { type: 'result', text: this.failed, isError: true };
      // After the caller has counted the message as sent.
      queueMicrotask(() => this.io.emit(failed));
      return true;
    }
    if (!this.session) {
      this.waiting.push(() => this.send(text, id));
      return true;
    }
    // A second prompt into a running one is cancelled, refused or lost, by agent: never sent.
    if (this.prompting) return false;
    this.prompting = true;
    this.cancelling = false;
    const prompt = this.connection.agent.request('session/prompt', { sessionId: this.session, prompt: [{ type: 'text', text }] });
    prompt.then(
      (response) => this.ended(response),
      (error: unknown) => this.ended(undefined, new Error(said(error))),
    );
    return true;
  }

  interrupt(requestId: string): void {
    // Stopped while the session opens: the prompt waiting for it is dropped, and its turn ends.
    const dropped = !this.session && !this.failed && this.waiting.splice(0).length > 0;
    if (this.session && this.prompting) {
      this.cancelling = true;
      // Whatever waits for the chat's answer is withdrawn, as the protocol asks of a cancel.
      for (const asked of this.asked.values()) asked.answer({ outcome: 'cancelled' });
      this.asked.clear();
      void this.connection.agent.notify('session/cancel', { sessionId: this.session }).catch(() => {});
    }
    this.io.emit({ type: 'control', requestId, ok: true });
    if (dropped) this.io.emit({ type: 'result', text: 'the turn was stopped before the agent opened its session', isError: true });
  }

  decide(requestId: string, decision: PermissionDecision): void {
    const asked = this.asked.get(requestId);
    if (!asked) return;
    this.asked.delete(requestId);
    // Once: "allow for this session" is the bridge's own grant, which answers the next ask.
    const kinds = decision.behavior === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
    const option = kinds.map((kind) => asked.options.find((candidate) => candidate.kind === kind)).find(Boolean);
    asked.answer(option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' });
  }

  private async open(): Promise<void> {
    const { cwd, resumeId, mcp, authMethod, openTimeoutMs = ACP_OPEN_TIMEOUT_MS } = this.wire;
    const timer = setTimeout(() => this.fail(`the agent did not open its session within ${openTimeoutMs / 1000} s`), openTimeoutMs);
    timer.unref?.();
    try {
      const agent = this.connection.agent;
      const init = await agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: 'jsonl-bridge', version: '1' },
      });
      if (authMethod && init.authMethods?.some((method) => method.id === authMethod)) await agent.request('authenticate', { methodId: authMethod });
      const mcpServers = mcp ? this.offeredMcp(mcp, init.agentCapabilities?.mcpCapabilities?.http === true) : [];
      if (resumeId) {
        if (!init.agentCapabilities?.loadSession) throw new Error(`could not load the session ${resumeId}: the agent does not load sessions`);
        const loaded = await agent.request('session/load', { sessionId: resumeId, cwd, mcpServers }).catch((error: unknown) => {
          throw new Error(`could not load the session ${resumeId}: ${said(error)}`);
        });
        await this.replayed();
        await this.agentMode(resumeId, loaded?.modes);
        this.opened(resumeId);
      } else {
        const opened = await agent.request('session/new', { cwd, mcpServers });
        await this.agentMode(opened.sessionId, opened.modes);
        this.opened(opened.sessionId);
      }
    } catch (error) {
      this.fail(`acp: ${said(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The bridge's MCP server as the agent takes it: over http where it says it can, else over
   * stdio, which every ACP agent takes, through the bridge's relay to the same endpoint.
   */
  private offeredMcp(mcp: NonNullable<WireSession['mcp']>, http: boolean): acp.McpServer[] {
    if (http) return [{ type: 'http', name: mcp.serverName, url: mcp.url, headers: [{ name: 'authorization', value: `Bearer ${mcp.token}` }] }];
    if (!mcp.stdio) {
      this.io.warn?.(
        "the agent takes no MCP server over http, and the bridge's relay for stdio is not built (npm run build): it gets none of the bridge's tools",
      );
      return [];
    }
    const { command, args, env } = mcp.stdio;
    return [{ name: mcp.serverName, command, args, env: Object.entries(env).map(([name, value]) => ({ name, value })) }];
  }

  /**
   * The agent's own mode, where it offers modes: one that leaves every decision to the bridge.
   * That is `default` (Copilot's `agent`), in which it asks before it edits or runs anything
   * (Qwen Code opens in `auto`, where a classifier of its own allows what it deems safe,
   * unasked and unaudited); in `safe`, its read-only mode, so it plans rather than tries what
   * the bridge would refuse. An agent that has no such mode, or will not switch, goes on as it
   * is, and the bridge's log says so: what it then does unasked, no answer of the bridge's holds.
   */
  private async agentMode(sessionId: string, modes: acp.SessionModeState | null | undefined): Promise<void> {
    if (!modes) return;
    const safe = this.wire.mode === 'safe';
    const wanted = modes.availableModes.find((mode) => (safe ? READ_ONLY_MODES : ASKING_MODES).has(modeName(mode.id)));
    if (!wanted) {
      const offered = modes.availableModes.map((mode) => mode.id).join(', ');
      const mode = safe ? 'read-only mode' : 'mode in which it asks before it acts';
      return this.io.warn?.(`the agent offers no ${mode} (its modes: ${offered}): it stays in "${modes.currentModeId}"`);
    }
    if (wanted.id === modes.currentModeId) return;
    await this.connection.agent.request('session/set_mode', { sessionId, modeId: wanted.id }).catch((error: unknown) => {
      this.io.warn?.(`the agent did not take its mode "${wanted.id}": ${said(error)}`);
    });
  }

  /** Once a loaded session's replay has gone quiet. */
  private async replayed(): Promise<void> {
    this.lastUpdateAt = Date.now();
    for (let quiet = 0; quiet < REPLAY_QUIET_MS; quiet = Date.now() - this.lastUpdateAt) {
      await delay(REPLAY_QUIET_MS - quiet);
    }
  }

  private opened(sessionId: string): void {
    if (this.failed) return;
    this.session = sessionId;
    this.io.emit({ type: 'started', sessionId, cwd: this.wire.cwd });
    this.flush();
  }

  private permission(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    const call = params.toolCall as unknown as Record<string, unknown>;
    // After a cancel, or for no prompt: withdrawn, as the protocol asks.
    if (!this.prompting || this.cancelling) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    this.apply(acpPermissionTool(this.state, call));
    const kind = str(call.kind);
    if (this.wire.mode === 'safe' && kind && ACP_READING_KINDS.has(kind)) {
      const allow = params.options.find((option) => option.kind === 'allow_once');
      if (allow) return Promise.resolve({ outcome: { outcome: 'selected', optionId: allow.optionId } });
    }
    const requestId = `acp-${this.nextAsk++}`;
    return new Promise((resolve) => {
      this.asked.set(requestId, { options: params.options, answer: (outcome) => resolve({ outcome }) });
      const toolUseId = str(call.toolCallId);
      this.io.emit({ type: 'permission', requestId, tool: acpToolName(kind), input: acpToolInput(call), ...(toolUseId ? { toolUseId } : {}) });
    });
  }

  /** The prompt's answer (or its failure): the turn's result. */
  private ended(response: acp.PromptResponse | undefined, error?: Error): void {
    this.prompting = false;
    const end = acpTurnEnd(this.state);
    this.apply(end);
    const stop = response?.stopReason;
    const why = error ? `the agent failed the prompt: ${error.message}` : `the agent ended the turn: ${stop ?? 'no stop reason'}`;
    const text = stop === 'end_turn' ? end.answer : stop === 'cancelled' ? 'the agent stopped the turn' : end.answer || why;
    // Cut short by its own limits, the answer so far is an answer.
    const isError = stop !== 'end_turn' && stop !== 'max_tokens' && stop !== 'max_turn_requests';
    this.io.emit({ type: 'result', text, isError, costUsd: end.state.costUsd, usage: usageOf(response), sessionId: this.session });
  }

  /**
   * An update of the session: a turn's while a prompt runs. Outside one (a loaded session's
   * replay of its past, which may come after `session/load` answered, or what an agent says
   * after its answer) none is a turn's.
   */
  private update(update: unknown): void {
    this.lastUpdateAt = Date.now();
    // The agent's own slash commands, which it lists whenever it likes (most once its session opens).
    if (isObject(update) && update.sessionUpdate === 'available_commands_update') this.commands = acpCommands(update.availableCommands);
    else if (this.prompting) this.apply(acpUpdate(this.state, update));
  }

  private apply(step: AcpStep): void {
    this.state = step.state;
    for (const event of step.events) this.io.emit(event);
  }

  private flush(): void {
    for (const next of this.waiting.splice(0)) next();
  }

  private fail(reason: string): void {
    if (this.session || this.failed) return;
    this.failed = reason;
    this.flush();
  }
}

/** An error's words, with the details an agent adds to a JSON-RPC error (`data.details`: Qwen Code's "Internal error" says what went wrong there). */
function said(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const data = error instanceof acp.RequestError && isObject(error.data) ? error.data : undefined;
  const details = str(data?.details) ?? str(data?.message);
  return details && !message.includes(details) ? `${message}: ${details}` : message;
}

/** The agent's commands as the chat shows them: by name, without a slash; what is not a command is left out. */
function acpCommands(commands: unknown): AgentCommand[] {
  return (Array.isArray(commands) ? commands : []).filter(isObject).flatMap((command) => {
    const name = str(command.name)?.replace(/^\//, '');
    if (!name) return [];
    const hint = isObject(command.input) ? str(command.input.hint) : undefined;
    return [{ name, description: str(command.description) ?? '', ...(hint ? { hint } : {}) }];
  });
}

/** Tokens, where the agent reports them with its answer (`usage`, not yet in the stable protocol). */
function usageOf(response: acp.PromptResponse | undefined): Usage | undefined {
  const usage = (response as Record<string, unknown> | undefined)?.usage;
  if (!isObject(usage)) return undefined;
  const cached = num(usage.cachedReadTokens);
  return { inputTokens: num(usage.inputTokens) ?? 0, outputTokens: num(usage.outputTokens) ?? 0, cacheReadTokens: cached };
}
