import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 — what grammY calls `apiRoot`. */
  readonly origin: string;
  /** Stops listening and destroys every open connection, keep-alive ones included. */
  close(): Promise<void>;
}

/** A node:http server on a loopback port: `port`, or a random one. */
export async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<RunningServer> {
  const server = createServer(listener);
  // grammY's agent keeps connections alive; do not let idle ones hold the process open.
  server.keepAliveTimeout = 1000;
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
      });
      return closing;
    },
  };
}
