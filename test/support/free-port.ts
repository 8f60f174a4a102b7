import { createServer } from 'node:net';

/** A loopback port nothing listens on now: for a server this test starts on it later. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A loopback port that refuses every connection, for a peer that is never there. Not one
 * freePort() found: the system may give that port to another test's server a moment later
 * (listen(0)), which would then answer. Port 2 is never given so, nothing here listens on it,
 * and fetch does not refuse it beforehand as a "bad port" (as it does 1).
 */
export const REFUSING_PORT = 2;
