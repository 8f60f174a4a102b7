import { Server, ServerCredentials } from '@grpc/grpc-js';
import type { ApiConfig } from './api-settings.ts';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { ApiClients } from './auth.ts';
import { ApiScopes } from './scopes.ts';
import { subagentHandlers, type ApiDeps } from './handlers.ts';
import { chatHandlers, type ChatApiDeps } from './chat-handlers.ts';
import { loadServices } from './proto.ts';

/** Requests larger than this are refused by gRPC itself (RESOURCE_EXHAUSTED) before any handler runs. */
const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * The SubagentService and the ChatService on BRIDGE_API_ADDR (gRPC over HTTP/2; TLS when a
 * certificate is configured), for programs that drive subagents the way a chat does, and
 * write into chats' main sessions. Both take the same clients, with the same scopes. Returns
 * where it listens (with the port it got), and how to stop it.
 */
export async function startApiServer(
  config: ApiConfig,
  deps: Omit<ApiDeps & ChatApiDeps, 'clients' | 'scopes'>,
): Promise<{ address: string; close(): Promise<void> }> {
  const server = new Server({ 'grpc.max_receive_message_length': MAX_REQUEST_BYTES });
  const services = loadServices();
  const checked = { ...deps, clients: new ApiClients(config.tokens), scopes: new ApiScopes(config.scopes) };
  server.addService(services.SubagentService.service, subagentHandlers(checked));
  server.addService(services.ChatService.service, chatHandlers(checked));
  const credentials = config.tls
    ? ServerCredentials.createSsl(null, [{ cert_chain: config.tls.cert, private_key: config.tls.key }], false)
    : ServerCredentials.createInsecure();
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${config.port}`, credentials, (error, bound) =>
      error ? reject(new ConfigError(`BRIDGE_API_ADDR: cannot listen on ${host}:${config.port}: ${error.message}`)) : resolve(bound),
    ),
  );
  return {
    address: `${host}:${port}`,
    // Stops taking calls; open watches are ended after a short grace.
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
