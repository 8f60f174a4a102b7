import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Changes } from '../fake-telegram/changes.ts';

export type EnvelopeType = 'events_api' | 'slash_commands' | 'interactive';

/** One envelope the twin pushed, and what became of it. */
export interface Envelope {
  readonly envelopeId: string;
  readonly type: EnvelopeType;
  readonly payload: Record<string, unknown>;
  /** Date.now() when first sent. */
  readonly sentAt: number;
  /** How many times it was sent again for want of an ack. */
  retries: number;
  /** Date.now() of the ack; undefined while unacked. */
  ackedAt?: number;
  /** Milliseconds from its last sending to the ack. */
  ackMs?: number;
  /** The ack's payload (a slash command's immediate answer). */
  ackPayload?: Record<string, unknown>;
}

export interface SocketModeOptions {
  /** Unacked this long, an envelope is sent again (retry_attempt + 1), as Slack does. Default 3000. */
  readonly ackTimeoutMs?: number;
  /** Sent again at most this many times. Default 3. */
  readonly maxRetries?: number;
  /** The server pings this often (the client gives up past 30 s without one). Default 10000. */
  readonly pingIntervalMs?: number;
}

/**
 * Socket Mode's WebSocket side: a ticket from apps.connections.open lets one connection in, which
 * gets `hello`; envelopes go to the newest open connection (or wait for one), are recorded with
 * their ack and its delay, and are sent again, unacked past the timeout.
 */
export class SocketModeServer {
  readonly envelopes: Envelope[] = [];
  /** Every connection ever opened (the bridge reconnecting opens another). */
  connections = 0;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly open: WebSocket[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly ackTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly pingIntervalMs: number;

  constructor(
    private readonly changes: Changes,
    options: SocketModeOptions = {},
  ) {
    this.ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    this.maxRetries = options.maxRetries ?? 3;
    this.pingIntervalMs = options.pingIntervalMs ?? 10_000;
  }

  /** A one-use ticket for the URL apps.connections.open answers. */
  ticket(): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return ticket;
  }

  get openConnections(): number {
    return this.open.length;
  }

  /** The HTTP server's `upgrade` handler: `/link/?ticket=…` only, each ticket once. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    this.connections++;
    this.open.push(ws);
    const ping = setInterval(() => ws.ping(), this.pingIntervalMs);
    ws.on('close', () => {
      clearInterval(ping);
      this.open.splice(this.open.indexOf(ws), 1);
      this.changes.notify();
    });
    ws.on('message', (data: Buffer) => this.received(data.toString('utf8')));
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.open.length,
        debug_info: { host: 'fake-slack', approximate_connection_time: 3600 },
        connection_info: { app_id: 'A0FAKE' },
      }),
    );
    // What waited for a connection goes now.
    for (const envelope of this.envelopes) if (envelope.ackedAt === undefined && envelope.retries === -1) this.deliver(envelope);
    this.changes.notify();
  }

  private received(text: string): void {
    let message: { envelope_id?: string; payload?: Record<string, unknown> };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    const envelope = this.envelopes.find((e) => e.envelopeId === message.envelope_id);
    if (!envelope || envelope.ackedAt !== undefined) return;
    envelope.ackedAt = Date.now();
    envelope.ackMs = envelope.ackedAt - this.lastSent.get(envelope.envelopeId)!;
    if (message.payload && Object.keys(message.payload).length) envelope.ackPayload = message.payload;
    this.changes.notify();
  }

  private readonly lastSent = new Map<string, number>();

  /** Sends an envelope to the app (now, or once it is connected) and records it. */
  push(type: EnvelopeType, payload: Record<string, unknown>): Envelope {
    const envelope: Envelope = { envelopeId: randomUUID(), type, payload, sentAt: Date.now(), retries: -1 };
    this.envelopes.push(envelope);
    if (this.open.length) this.deliver(envelope);
    return envelope;
  }

  private deliver(envelope: Envelope): void {
    const ws = this.open.at(-1);
    if (!ws) return;
    envelope.retries++;
    this.lastSent.set(envelope.envelopeId, Date.now());
    ws.send(
      JSON.stringify({
        envelope_id: envelope.envelopeId,
        type: envelope.type,
        payload: envelope.payload,
        accepts_response_payload: envelope.type !== 'events_api',
        ...(envelope.type === 'events_api' ? { retry_attempt: envelope.retries, retry_reason: envelope.retries ? 'timeout' : '' } : {}),
      }),
    );
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (envelope.ackedAt !== undefined || envelope.retries >= this.maxRetries) return;
      this.deliver(envelope);
    }, this.ackTimeoutMs);
    this.timers.add(timer);
    this.changes.notify();
  }

  /** Sends an envelope again as Slack does when it missed the ack: the same id and payload, the next retry_attempt. */
  redeliver(envelope: Envelope): void {
    delete envelope.ackedAt;
    delete envelope.ackMs;
    this.deliver(envelope);
  }

  /** Slack's `disconnect` message: the app is to reconnect (a new apps.connections.open). */
  disconnect(reason = 'refresh_requested'): void {
    for (const ws of this.open) ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake-slack' } }));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    for (const ws of [...this.open]) ws.terminate();
    this.wss.close();
  }
}
