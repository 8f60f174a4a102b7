import { APPROVAL_REQUESTS } from './codex-app-server.ts';
import { isObject, jsonOf, str, type Json } from './decoder.ts';
import type { AgentEvent } from './events.ts';
import type { LiveWire, LiveWireFactory, WireIo, WireSession } from './live-wire.ts';

/** What the chat's mode means to codex: its sandbox, and whether it asks before acting. */
const MODES: Record<WireSession['mode'], { sandbox: string; approvalPolicy: string }> = {
  bypass: { sandbox: 'workspace-write', approvalPolicy: 'never' },
  // `untrusted`: anything but known-safe reading is asked about, and the bridge asks the chat.
  ask: { sandbox: 'workspace-write', approvalPolicy: 'untrusted' },
  safe: { sandbox: 'read-only', approvalPolicy: 'never' },
};

type Reply = { ok: true; result: Json } | { ok: false; error: string };

/**
 * The bridge as a JSON-RPC client of `codex app-server`. The process starts with the
 * handshake and opens its thread (started in the chat's directory and mode, or resumed);
 * messages wait until the thread is open. A message is a new turn (`turn/start`) when none
 * is at work, else a steer into it (`turn/steer`, naming the turn); a steer that comes as the
 * turn ends starts the next one instead, so no message is lost. Each message carries the
 * bridge's id, which codex names back on the turn's `userMessage` item.
 */
export const codexAppServerWire: LiveWireFactory = (io, session) => new AppServerClient(io, session);

class AppServerClient implements LiveWire {
  private nextId = 1;
  private readonly replies = new Map<number, (reply: Reply) => void>();
  private thread: string | undefined;
  /** Why the thread could not be opened: every turn fails with it. */
  private failed: string | undefined;
  /** The turn at work, once codex named it. */
  private turn: string | undefined;
  /** A `turn/start` is unanswered: steers wait for the turn's id. */
  private starting = false;
  /** Turns that ended before their `turn/start` was answered. */
  private readonly ended = new Set<string>();
  /** Messages and interrupts waiting for the thread, or for the turn being started. */
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly io: WireIo,
    private readonly session: WireSession,
  ) {
    this.request('initialize', { clientInfo: { name: 'jsonl-bridge', version: '1' }, capabilities: null }, (reply) => {
      if (!reply.ok) return this.fail(`codex did not start its app server: ${reply.error}`);
      this.io.write(JSON.stringify({ jsonrpc: '2.0', method: 'initialized' }));
      this.openThread();
    });
  }

  take(line: unknown): boolean {
    if (!isObject(line)) return false;
    const { method } = line;
    if (typeof method !== 'string') {
      if (typeof line.id === 'number') this.settle(line.id, line);
      return 'id' in line;
    }
    if ('id' in line) {
      if (APPROVAL_REQUESTS[method]) return false;
      // Nobody in the chat can answer it (a tool's own input form, say): refused, so codex goes on.
      this.io.write(JSON.stringify({ jsonrpc: '2.0', id: line.id, error: { code: -32601, message: `the bridge does not answer ${method}` } }));
      return true;
    }
    const params = isObject(line.params) ? line.params : {};
    if (method === 'turn/started') this.turn = isObject(params.turn) ? str(params.turn.id) : undefined;
    else if (method === 'turn/completed') {
      const id = isObject(params.turn) ? str(params.turn.id) : undefined;
      if (id && id !== this.turn) this.ended.add(id);
      this.turn = undefined;
    }
    return false;
  }

  send(text: string, id: string): boolean {
    if (this.failed) {
      // After the caller has counted the message as sent.
      const failed = this.failure(this.failed, id);
      queueMicrotask(() => this.io.emit(failed));
      return true;
    }
    if (this.notReady) {
      this.waiting.push(() => this.send(text, id));
      return true;
    }
    const input = [{ type: 'text', text }];
    if (this.turn) {
      const turn = this.turn;
      return this.request('turn/steer', { threadId: this.thread, expectedTurnId: turn, input, clientUserMessageId: id }, (reply) => {
        if (reply.ok) return;
        // The turn ended as the steer came: the message starts the next one.
        if (this.turn !== turn) return void this.send(text, id);
        this.io.emit({ type: 'error', message: `codex did not take the message: ${reply.error}` });
        this.io.emit({ type: 'input', id, state: 'cancelled' });
      });
    }
    this.starting = true;
    return this.request('turn/start', { threadId: this.thread, input, clientUserMessageId: id }, (reply) => {
      this.starting = false;
      if (!reply.ok) this.io.emit(this.failure(`codex could not start the turn: ${reply.error}`, id));
      else {
        const turn = isObject(reply.result.turn) ? str(reply.result.turn.id) : undefined;
        if (turn && !this.ended.delete(turn)) this.turn ??= turn;
      }
      this.flush();
    });
  }

  interrupt(requestId: string): void {
    const answer = (ok: boolean, error?: string) => this.io.emit({ type: 'control', requestId, ok, ...(error ? { error } : {}) });
    if (this.notReady) return void this.waiting.push(() => this.interrupt(requestId));
    if (!this.thread || !this.turn) return answer(true);
    this.request('turn/interrupt', { threadId: this.thread, turnId: this.turn }, (reply) => answer(reply.ok, reply.ok ? undefined : reply.error));
  }

  decide(requestId: string, decision: { behavior: 'allow' | 'deny' }): void {
    const id = jsonOf(requestId);
    if (id === undefined) return;
    this.io.write(JSON.stringify({ jsonrpc: '2.0', id, result: { decision: decision.behavior === 'allow' ? 'accept' : 'decline' } }));
  }

  /** The thread is still opening, or a turn starting: what comes waits, in order. */
  private get notReady(): boolean {
    return (!this.thread && !this.failed) || this.starting;
  }

  private openThread(): void {
    const { resumeId, cwd, mode, walled } = this.session;
    // In the bridge's walls its own sandbox stays off: ours makes `safe` read-only.
    const settings = { cwd, ...MODES[mode], ...(walled ? { sandbox: 'danger-full-access' } : {}) };
    const method = resumeId ? 'thread/resume' : 'thread/start';
    this.request(method, resumeId ? { threadId: resumeId, ...settings, excludeTurns: true } : settings, (reply) => {
      const thread = reply.ok && isObject(reply.result.thread) ? str(reply.result.thread.id) : undefined;
      if (!thread) return this.fail(reply.ok ? `codex opened no thread` : reply.error);
      this.thread = thread;
      this.flush();
    });
  }

  private flush(): void {
    for (const next of this.waiting.splice(0)) next();
  }

  /** The thread cannot be opened (a resumed one codex no longer knows): the waiting messages fail with why. */
  private fail(reason: string): void {
    this.failed = reason;
    this.flush();
  }

  /** A message's turn that could not run: a failed result that answers it. */
  private failure(reason: string, id: string): AgentEvent {
    return { type: 'result', text: reason, isError: true, answered: [id] };
  }

  private request(method: string, params: Json, onReply: (reply: Reply) => void): boolean {
    const id = this.nextId++;
    this.replies.set(id, onReply);
    const written = this.io.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    if (!written) this.replies.delete(id);
    return written;
  }

  private settle(id: number, line: Json): void {
    const onReply = this.replies.get(id);
    if (!onReply) return;
    this.replies.delete(id);
    const error = isObject(line.error) ? (str(line.error.message) ?? 'error') : undefined;
    onReply(error !== undefined ? { ok: false, error } : { ok: true, result: isObject(line.result) ? line.result : {} });
  }
}
