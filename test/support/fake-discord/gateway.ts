import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Changes } from '../fake-telegram/changes.ts';

/** Gateway intents the fake looks at. */
export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildPresences: 1 << 8,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

const PRIVILEGED = [Intent.GuildMembers, Intent.GuildPresences, Intent.MessageContent];

/** Gateway opcodes. */
const Op = { Dispatch: 0, Heartbeat: 1, Identify: 2, Resume: 6, Reconnect: 7, InvalidSession: 9, Hello: 10, HeartbeatAck: 11 } as const;

export interface GatewaySession {
  readonly id: string;
  readonly intents: number;
  seq: number;
  /** Every dispatch sent, for a resume. */
  readonly sent: { s: number; t: string; d: unknown }[];
  socket: WebSocket | undefined;
}

export interface GatewayOptions {
  token: string;
  heartbeatIntervalMs: number;
  /** Privileged intents the application's settings allow (the developer portal's switches). */
  allowedPrivileged: () => number;
  /** READY's payload, and the dispatches that follow it (GUILD_CREATE per guild). */
  ready(session: GatewaySession): { ready: Record<string, unknown>; then: { t: string; d: unknown }[] };
  origin: () => string;
  changes: Changes;
  newSessionId: () => string;
}

/**
 * Discord's gateway over a WebSocket: hello (op 10), identify (op 2; a bad token closes 4004, a
 * privileged intent the application has not been granted closes 4014), READY, heartbeats
 * answered by op 11, dispatches numbered per session, and resume (op 6) replaying what was
 * missed. The address is the server's own, served on any path, with any query string.
 */
export class Gateway {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, GatewaySession>();
  /** Every op a client sent, in order: what tests read of identify and heartbeats. */
  readonly received: { op: number; d: unknown; at: number }[] = [];
  /** Connections so far, with the URL each came to. */
  readonly connections: string[] = [];

  constructor(private readonly options: GatewayOptions) {}

  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    this.server.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req.url ?? '/'));
  }

  /** Sessions identified and still connected. */
  get live(): GatewaySession[] {
    return [...this.sessions.values()].filter((s) => s.socket !== undefined);
  }

  /** Sends a dispatch to every connected session that `payload` gives one for (its intents decide). */
  dispatch(t: string, payload: (session: GatewaySession) => unknown) {
    for (const session of this.sessions.values()) {
      const d = payload(session);
      if (d === undefined) continue;
      this.send(session, t, d);
    }
  }

  /** Closes every connection with `code`, as Discord does when it restarts a gateway node (sessions may resume). */
  drop(code = 4000): void {
    for (const session of this.sessions.values()) session.socket?.close(code, 'dropped by the fake');
  }

  close(): void {
    for (const client of this.server.clients) client.terminate();
    this.server.close();
  }

  private accept(ws: WebSocket, url: string): void {
    this.connections.push(url);
    let session: GatewaySession | undefined;
    ws.send(JSON.stringify({ op: Op.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs }, s: null, t: null }));
    ws.on('message', (raw) => {
      let packet: { op?: number; d?: Record<string, unknown> };
      try {
        packet = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.concat(raw as Buffer[]).toString('utf8')) as typeof packet;
      } catch {
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      this.received.push({ op: packet.op ?? -1, d: packet.d, at: Date.now() });
      this.options.changes.notify();
      switch (packet.op) {
        case Op.Heartbeat:
          ws.send(JSON.stringify({ op: Op.HeartbeatAck, d: null, s: null, t: null }));
          return;
        case Op.Identify:
          session = this.identify(ws, packet.d ?? {});
          return;
        case Op.Resume:
          session = this.resume(ws, packet.d ?? {});
          return;
        default:
          if (!session) ws.close(4003, 'Not authenticated.');
      }
    });
    ws.on('close', () => {
      if (session?.socket === ws) session.socket = undefined;
      this.options.changes.notify();
    });
  }

  private identify(ws: WebSocket, d: Record<string, unknown>): GatewaySession | undefined {
    if (d.token !== this.options.token && d.token !== `Bot ${this.options.token}`) {
      ws.close(4004, 'Authentication failed.');
      return undefined;
    }
    const intents = typeof d.intents === 'number' ? d.intents : NaN;
    if (!Number.isInteger(intents)) {
      ws.close(4013, 'Invalid intent(s).');
      return undefined;
    }
    if (PRIVILEGED.some((bit) => intents & bit && !(this.options.allowedPrivileged() & bit))) {
      ws.close(4014, 'Disallowed intent(s).');
      return undefined;
    }
    const session: GatewaySession = { id: this.options.newSessionId(), intents, seq: 0, sent: [], socket: ws };
    this.sessions.set(session.id, session);
    const { ready, then } = this.options.ready(session);
    this.send(session, 'READY', { ...ready, session_id: session.id, resume_gateway_url: this.wsOrigin() });
    for (const event of then) this.send(session, event.t, event.d);
    this.options.changes.notify();
    return session;
  }

  private resume(ws: WebSocket, d: Record<string, unknown>): GatewaySession | undefined {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    if (!session || (d.token !== this.options.token && d.token !== `Bot ${this.options.token}`)) {
      ws.send(JSON.stringify({ op: Op.InvalidSession, d: false, s: null, t: null }));
      return undefined;
    }
    session.socket = ws;
    const after = typeof d.seq === 'number' ? d.seq : 0;
    for (const missed of session.sent.filter((p) => p.s > after)) ws.send(JSON.stringify({ op: Op.Dispatch, ...missed }));
    session.seq++;
    ws.send(JSON.stringify({ op: Op.Dispatch, s: session.seq, t: 'RESUMED', d: {} }));
    this.options.changes.notify();
    return session;
  }

  private send(session: GatewaySession, t: string, d: unknown): void {
    const packet = { s: ++session.seq, t, d };
    session.sent.push(packet);
    // A session without a connection keeps its dispatches for the resume.
    session.socket?.send(JSON.stringify({ op: Op.Dispatch, ...packet }));
  }

  private wsOrigin(): string {
    return this.options.origin().replace(/^http/, 'ws');
  }
}
