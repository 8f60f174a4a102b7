import type { Metadata } from '@grpc/grpc-js';
import { sameSecret } from '../../kernel/http/same-secret.ts';
import type { ApiConfig } from './api-settings.ts';

/**
 * The client a call comes from, by the bearer token in its `authorization` metadata, or
 * undefined. Every client's token is compared (sameSecret): neither a token's length nor its
 * first wrong character, nor which client's it is, shows in how long a refusal takes.
 */
export class ApiClients {
  constructor(private readonly clients: ApiConfig['tokens']) {}

  get none(): boolean {
    return this.clients.length === 0;
  }

  identify(metadata: Metadata): string | undefined {
    const header = metadata.get('authorization')[0];
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
    if (!token) return undefined;
    let found: string | undefined;
    for (const client of this.clients) if (sameSecret(token, client.token)) found = client.name;
    return found;
  }
}
