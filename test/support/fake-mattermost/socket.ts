import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Changes } from '../fake-telegram/changes.ts';
import { newId } from './model.ts';

/** One client's socket: authenticated once its challenge carried the bot's token, and the sequence of its events. */
interface Client {
  ws: WebSocket;
  authenticated: boolean;
  seq: number;
}

/**
 * The server's WebSocket (`/api/v4/websocket`) as Mattermost speaks it: the client's first
 * message is its `authentication_challenge` with the token (answered OK, then `hello` as event 0;
 * a wrong token is answered FAIL and the socket closed); each event after carries the next
 * `seq`; a `ping` is answered `pong` under its `seq_reply`.
 */
export class SocketServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();

  constructor(
    private readonly token: () => string,
    private readonly changes: Changes,
  ) {}

  get authenticated(): number {
    return [...this.clients].filter((c) => c.authenticated).length;
  }

  /** How many sockets ever authenticated: a test waits for the bridge's next one. */
  authentications = 0;

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const client: Client = { ws, authenticated: false, seq: 0 };
      this.clients.add(client);
      ws.on('close', () => {
        this.clients.delete(client);
        this.changes.notify();
      });
      ws.on('message', (raw) => this.onMessage(client, (raw as Buffer).toString('utf8')));
    });
  }

  private onMessage(client: Client, raw: string): void {
    let message: { action?: string; seq?: number; data?: { token?: string } };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return;
    }
    if (message.action === 'authentication_challenge') {
      if (message.data?.token !== this.token()) {
        client.ws.send(
          JSON.stringify({
            status: 'FAIL',
            seq_reply: message.seq,
            error: { id: 'api.web_socket_router.not_authenticated.app_error', message: 'Invalid or expired session, please login again.' },
          }),
        );
        client.ws.close(1008);
        return;
      }
      client.authenticated = true;
      this.authentications++;
      client.ws.send(JSON.stringify({ status: 'OK', seq_reply: message.seq }));
      this.send(client, 'hello', { connection_id: newId(), server_version: '10.5.0', server_hostname: 'fake' });
      this.changes.notify();
      return;
    }
    if (!client.authenticated) return;
    if (message.action === 'ping') client.ws.send(JSON.stringify({ status: 'OK', seq_reply: message.seq, data: { text: 'pong', version: '10.5.0' } }));
  }

  /** An event to every authenticated socket. */
  broadcast(event: string, data: Record<string, unknown>, broadcast: Record<string, unknown> = {}): void {
    for (const client of this.clients) if (client.authenticated) this.send(client, event, data, broadcast);
  }

  private send(client: Client, event: string, data: Record<string, unknown>, broadcast: Record<string, unknown> = {}): void {
    client.ws.send(JSON.stringify({ event, data, broadcast, seq: client.seq++ }));
  }

  /** Every socket dropped without a close frame, as a network fault or a proxy would. */
  drop(): void {
    for (const client of this.clients) client.ws.terminate();
  }

  close(): void {
    this.drop();
    this.wss.close();
  }
}
