import type { ServerType } from '@hono/node-server';
import { ConfigError } from '../errors/config-error.ts';

/** Resolves once `server` listens on host:port; a port in use, or any other failure, is a ConfigError naming `variable`. */
export function listening(server: ServerType, variable: string, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ConfigError(`${variable}: cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`)),
    );
  });
}

/** Stops listening, cutting the connections still open (event streams stay open until their pages leave). */
export async function closeServer(server: ServerType): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
