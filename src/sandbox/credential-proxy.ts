import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { listenOpen } from './socket-relay.ts';
import { MODEL_CREDENTIAL_VARIABLES, modelApiBase, PLACEHOLDER_KEY, type CredentialSpec, type ModelApiAccess } from './model-api-access.ts';

/*
 * The model API credential stays in the bridge: the CLI in its walls is pointed at this proxy
 * (a Unix socket bound in, a loopback port inside) with a placeholder for its key or token,
 * and the proxy sends each request on to the real API with the real credential in the header
 * the CLI put the placeholder in, streaming the answer back. A WebSocket upgrade (codex's
 * `GET /responses`) goes through the same way. It forwards to that API only, so the
 * credential goes nowhere else.
 */

export { PLACEHOLDER_KEY };

/** A credential the bridge keeps for one CLI, and the API it is for. */
export interface HeldApi {
  access: ModelApiAccess;
  held: { spec: CredentialSpec; secret: string }[];
  upstream: URL;
}

/** The credentials in `env` this CLI uses (one per header, in its order of preference), or none. */
export function heldApi(env: Record<string, string | undefined>, access: ModelApiAccess | undefined): HeldApi | undefined {
  if (!access) return undefined;
  const held: HeldApi['held'] = [];
  for (const spec of access.credentials) {
    const secret = env[spec.variable];
    if (secret && !held.some((h) => h.spec.header === spec.header)) held.push({ spec, secret });
  }
  if (!held.length) return undefined;
  const base = modelApiBase(access, env);
  try {
    return { access, held, upstream: new URL(base) };
  } catch {
    throw new Error(`${access.upstream.variable ?? 'the model API'} is not a URL: ${base}`);
  }
}

/**
 * The sandbox's environment and the arguments put before the CLI's own: every model
 * credential the bridge's environment holds is gone, the held ones replaced by the
 * placeholder, and the CLI pointed at the proxy's address inside.
 */
export function withoutCredentials(
  env: Record<string, string | undefined>,
  api: HeldApi | undefined,
  insideUrl: string,
): { env: Record<string, string | undefined>; args: string[] } {
  const out = { ...env };
  for (const name of MODEL_CREDENTIAL_VARIABLES) delete out[name];
  for (const spec of api?.access.credentials ?? []) delete out[spec.variable];
  if (!api) return { env: out, args: [] };
  for (const { spec } of api.held) out[spec.variable] = PLACEHOLDER_KEY;
  const { pointAt } = api.access;
  if (pointAt.env) out[pointAt.env] = insideUrl;
  return { env: out, args: (pointAt.args ?? []).map((arg) => arg.replaceAll('{modelApiUrl}', insideUrl)) };
}

/** Serves the held API on `path`: each request, and each WebSocket upgrade, sent on with the real credential. */
export function credentialProxy(path: string, api: HeldApi): Server {
  const { upstream } = api;
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const base = upstream.pathname.replace(/\/$/, '');
  const onward = (req: IncomingMessage) => ({
    protocol: upstream.protocol,
    host: upstream.hostname,
    port: upstream.port || undefined,
    method: req.method,
    path: `${base}${req.url ?? '/'}`,
    headers: withCredential(req.headers, api),
  });
  const server = createServer((req, res) => {
    const out = send(onward(req), (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`the bridge could not reach ${upstream.origin}: ${error.message}\n`);
      else res.destroy();
    });
    req.pipe(out);
  });
  server.on('upgrade', (req: IncomingMessage, inside: Duplex, head: Buffer) => {
    inside.on('error', () => inside.destroy());
    const out = send(onward(req));
    out.on('upgrade', (answer: IncomingMessage, outside: Duplex, outsideHead: Buffer) => {
      inside.write(statusAndHeaders(answer));
      if (outsideHead.length) inside.write(outsideHead);
      if (head.length) outside.write(head);
      outside.on('error', () => inside.destroy());
      inside.on('close', () => outside.destroy());
      outside.on('close', () => inside.destroy());
      outside.pipe(inside).pipe(outside);
    });
    // The API refused the upgrade: its answer as it is, so the CLI falls back as it would without walls.
    out.on('response', (answer: IncomingMessage) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        inside.end(Buffer.concat([Buffer.from(statusAndHeaders(answer, body.length)), body]));
      });
    });
    out.on('error', (error) => {
      const text = `the bridge could not reach ${upstream.origin}: ${error.message}\n`;
      inside.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
    });
    out.end();
  });
  listenOpen(server, path);
  return server;
}

/** The CLI's headers for the real API: its host, and the real credential where the CLI sent the placeholder's header. */
function withCredential(headers: IncomingHttpHeaders, api: HeldApi): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers, host: api.upstream.host };
  for (const { spec, secret } of api.held) {
    if (headers[spec.header] !== undefined || api.held.length === 1) out[spec.header] = spec.scheme ? `${spec.scheme} ${secret}` : secret;
  }
  return out;
}

/** An answer's status line and headers as sent on a raw socket; with `length`, its body is that long and the connection ends. */
function statusAndHeaders(answer: IncomingMessage, length?: number): string {
  const lines = [`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}`];
  const raw = answer.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (length !== undefined && ['content-length', 'transfer-encoding', 'connection'].includes(name)) continue;
    lines.push(`${raw[i]}: ${raw[i + 1]}`);
  }
  if (length !== undefined) lines.push(`content-length: ${length}`, 'connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}
