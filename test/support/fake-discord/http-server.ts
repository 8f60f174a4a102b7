import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly origin: string;
  /** Stops listening and destroys every open connection, keep-alive and upgraded ones included. */
  close(): Promise<void>;
}

/**
 * A node:http server on a loopback port that also takes WebSocket upgrades (the gateway is
 * served on the same port as the REST API, as one fake).
 */
export async function listen(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  upgrade: (req: IncomingMessage, socket: Socket, head: Buffer) => void,
  port = 0,
): Promise<RunningServer> {
  const server = createServer(listener);
  server.keepAliveTimeout = 1000;
  const upgraded = new Set<Socket>();
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      });
      return closing;
    },
  };
}
