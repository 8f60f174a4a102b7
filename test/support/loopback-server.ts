import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234: what a client calls its API root. */
  readonly origin: string;
  /** Stops listening and destroys every open connection, keep-alive and upgraded ones included. */
  close(): Promise<void>;
}

/**
 * A node:http server on a loopback port (`port`, or a random one) for a chat app's twin, taking
 * WebSocket upgrades too where the twin has a socket beside its API (a gateway on the same port).
 */
export async function listen(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: { port?: number; upgrade?: (req: IncomingMessage, socket: Socket, head: Buffer) => void; /** Another address than loopback. */ host?: string } = {},
): Promise<RunningServer> {
  const { port = 0, upgrade, host = '127.0.0.1' } = options;
  const server = createServer(listener);
  // Clients keep connections alive; idle ones must not hold the process open.
  server.keepAliveTimeout = 1000;
  const upgraded = new Set<Socket>();
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    if (upgrade) upgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://${host}:${bound}`,
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
