import { chmodSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A Unix socket that carries each connection to a TCP port of the host: how a sandbox without
 * a network of its own reaches one thing the bridge serves it (its MCP endpoint), and nothing
 * else. Listening when this returns (a Unix socket binds at once), open to the sandbox's uid.
 */
export function relayToTcp(path: string, host: string, port: number): Server {
  const server = createServer((inside: Socket) => {
    const outside = connect({ host, port });
    inside.pipe(outside).pipe(inside);
    const end = () => {
      inside.destroy();
      outside.destroy();
    };
    inside.on('error', end).on('close', end);
    outside.on('error', end).on('close', end);
  });
  listenOpen(server, path);
  return server;
}

/** Listens on `path` and lets any uid connect (the folder it is in is the sandbox's alone). */
export function listenOpen(server: Server, path: string): void {
  server.on('error', () => {}); // a relay that fails leaves its sandbox's connections refused, which the CLI reports
  server.listen(path);
  chmodSync(path, 0o666);
}
