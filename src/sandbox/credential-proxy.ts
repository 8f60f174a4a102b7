import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { listenOpen } from './socket-relay.ts';

/*
 * The model API key stays in the bridge: the CLI in its walls is pointed at this proxy (a Unix
 * socket bound in, a loopback port inside) with a placeholder for a key, and the proxy sends
 * each request on to the real API with the real key in its place, streaming the answer back.
 * It forwards to that API only, so the key goes nowhere else.
 */

/** What the sandbox's environment holds where a key was. */
export const PLACEHOLDER_KEY = 'sk-held-by-the-bridge';

/** A CLI's model API credential as the environment gives it, and how it is sent. */
interface CredentialKind {
  /** The variable holding it. */
  variable: string;
  /** The header it goes in, and how. */
  header: string;
  value: (secret: string) => string;
  /** The variable that points the CLI at another base URL, and its default. */
  baseUrlVariable: string;
  defaultBaseUrl: string;
}

/** Claude Code: ANTHROPIC_API_KEY as x-api-key, or ANTHROPIC_AUTH_TOKEN as a bearer; ANTHROPIC_BASE_URL moves it. */
const KINDS: CredentialKind[] = [
  { variable: 'ANTHROPIC_API_KEY', header: 'x-api-key', value: (s) => s, baseUrlVariable: 'ANTHROPIC_BASE_URL', defaultBaseUrl: 'https://api.anthropic.com' },
  {
    variable: 'ANTHROPIC_AUTH_TOKEN',
    header: 'authorization',
    value: (s) => `Bearer ${s}`,
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com',
  },
];

/** The credentials in `env` the bridge keeps, each with where its API is. */
export interface HeldCredential {
  kind: CredentialKind;
  secret: string;
  upstream: URL;
}

export function heldCredentials(env: Record<string, string | undefined>): HeldCredential[] {
  return KINDS.flatMap((kind) => {
    const secret = env[kind.variable];
    if (!secret) return [];
    return [{ kind, secret, upstream: new URL(env[kind.baseUrlVariable] || kind.defaultBaseUrl) }];
  });
}

/**
 * The sandbox's environment with each held credential replaced by the placeholder, and its
 * base URL by the proxy's address inside.
 */
export function withoutCredentials(env: Record<string, string | undefined>, held: HeldCredential[], insideUrl: string): Record<string, string | undefined> {
  const out = { ...env };
  for (const { kind } of held) {
    out[kind.variable] = PLACEHOLDER_KEY;
    out[kind.baseUrlVariable] = insideUrl;
  }
  return out;
}

/** Serves the held credentials' API (they share one base URL, as Claude's do) on `path`. */
export function credentialProxy(path: string, held: HeldCredential[]): Server {
  const upstream = held[0]!.upstream;
  const server = createServer((req, res) => {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: upstream.host };
    for (const { kind, secret } of held) if (kind.header in headers || held.length === 1) headers[kind.header] = kind.value(secret);
    const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
    const base = upstream.pathname.replace(/\/$/, '');
    const out = send(
      { protocol: upstream.protocol, host: upstream.hostname, port: upstream.port || undefined, method: req.method, path: `${base}${req.url ?? '/'}`, headers },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`the bridge could not reach ${upstream.origin}: ${error.message}\n`);
      else res.destroy();
    });
    req.pipe(out);
  });
  listenOpen(server, path);
  return server;
}
