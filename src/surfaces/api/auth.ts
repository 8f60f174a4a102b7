import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import type { ApiConfig } from './api-settings.ts';

/**
 * The client a call comes from, by the bearer token in its `authorization` metadata, or
 * undefined. Tokens are compared by their hashes in constant time: neither a token's length
 * nor its first wrong character shows in how long a refusal takes.
 */
export class ApiClients {
  private readonly clients: { name: string; digest: Buffer }[];

  constructor(tokens: ApiConfig['tokens']) {
    this.clients = tokens.map(({ name, token }) => ({ name, digest: digest(token) }));
  }

  get none(): boolean {
    return this.clients.length === 0;
  }

  identify(metadata: Metadata): string | undefined {
    const header = metadata.get('authorization')[0];
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
    if (!token) return undefined;
    const presented = digest(token);
    let found: string | undefined;
    for (const client of this.clients) if (timingSafeEqual(client.digest, presented)) found = client.name;
    return found;
  }
}

const digest = (token: string) => createHash('sha256').update(token).digest();
