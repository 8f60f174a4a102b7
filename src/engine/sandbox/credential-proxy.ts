import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import type { UsageEvent } from '../../kernel/protocols/events.ts';
import { listenOpen } from './socket-relay.ts';
import { modelApiBase, PLACEHOLDER_KEY } from './model-api-access.ts';
import type { CredentialSpec, ModelApiAccess } from './wall-scope.ts';
import { routeAllowed } from './model-routes.ts';
import { UsageReader } from './model-usage.ts';
import { bodyIfChecked, meteredEvent, requestedModel, unpricedModel, type ProxyMetering } from './proxy-metering.ts';

/*
 * The model API credential stays in the bridge: the CLI in its walls is pointed at this proxy
 * (a Unix socket bound in, a loopback port inside) with a placeholder for its key or token,
 * and the proxy sends each call its adapter lists on to the real API with the real credential
 * in the header the CLI put the placeholder in, streaming the answer back and metering the
 * usage in it. It forwards to that API only, so the credential goes nowhere else, and those
 * calls only, so it buys nothing that goes unmetered.
 */

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
  const base = modelApiBase(access, env);
  if (!held.length || !base) return undefined;
  if (!URL.canParse(base)) throw new Error(`${access.upstream.variable ?? 'the model API'} is not a URL: ${base}`);
  return { access, held, upstream: new URL(base) };
}

/**
 * The sandbox's environment and the arguments put before the CLI's own: every model
 * credential the bridge's environment holds (`keys`: each CLI's, see credentialVariables) is
 * gone, the held ones replaced by the placeholder, and the CLI pointed at the proxy's address inside.
 */
export function withoutCredentials(
  env: Record<string, string | undefined>,
  api: HeldApi | undefined,
  insideUrl: string,
  keys: readonly string[],
): { env: Record<string, string | undefined>; args: string[] } {
  const out = { ...env };
  for (const name of keys) delete out[name];
  if (!api) return { env: out, args: [] };
  for (const { spec } of api.held) out[spec.variable] = PLACEHOLDER_KEY;
  const { pointAt } = api.access;
  if (pointAt.env) out[pointAt.env] = insideUrl;
  return { env: out, args: (pointAt.args ?? []).map((arg) => arg.replaceAll('{modelApiUrl}', insideUrl)) };
}

/** What the proxy tells of the calls it refuses and the model calls it passes, and how it prices them. */
export interface ProxyWatch {
  /** A call it refused (`GET /v1/anything`), and why. */
  refused(call: string, why: string): void;
  /** A model call it passed, as the API's answer reported it. */
  metered(event: UsageEvent): void;
  metering?: ProxyMetering;
}

/**
 * Serves the held API on `path`: each call its CLI's adapter lists (`routes`) sent on with the
 * real credential, the usage in each answer metered; any other call refused (403) and told.
 * A WebSocket upgrade is answered 426: its frames cannot be metered, and codex, which tries
 * one first, goes on over HTTP at once.
 */
export function credentialProxy(path: string, api: HeldApi, watch: ProxyWatch): Server {
  const { upstream } = api;
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const base = upstream.pathname.replace(/\/$/, '');
  const server = createServer((req, res) => {
    const call = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]}`;
    const refuse = (why: string) => {
      watch.refused(call, why);
      // Answered once its body is read: a client still writing it would see its connection reset.
      const answer = () =>
        res.writeHead(403, { 'content-type': 'application/json' }).end(`${JSON.stringify({ error: { type: 'refused_by_bridge', message: why } })}\n`);
      if (req.readableEnded) answer();
      else req.on('end', answer).resume();
    };
    if (!routeAllowed(api.access.routes, req.method, req.url))
      return refuse(`${call} is not a call this CLI makes to its model API (walls.modelApi.routes of its adapter), so the bridge does not send it on`);
    void bodyIfChecked(req, watch.metering).then((body) => {
      const unpriced = body && unpricedModel(body, watch.metering!);
      if (unpriced) return refuse(unpriced);
      const out = send(onward(req, api, base), (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const reader = new UsageReader(answer.headers['content-type']);
        answer.on('data', (chunk: Buffer) => reader.take(chunk));
        answer.on('end', () => {
          for (const used of reader.end()) watch.metered(meteredEvent(used, watch.metering, body && requestedModel(body)));
        });
        answer.pipe(res);
      });
      out.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`the bridge could not reach ${upstream.origin}: ${error.message}\n`);
        else res.destroy();
      });
      if (body) out.end(body);
      else req.pipe(out);
    });
  });
  server.on('upgrade', (_req: IncomingMessage, inside: Duplex) => {
    inside.on('error', () => inside.destroy());
    const text = 'the bridge meters model calls over HTTP: no WebSocket\n';
    inside.end(`HTTP/1.1 426 Upgrade Required\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
  });
  listenOpen(server, path);
  return server;
}

/** The request as the real API gets it: its path below the API's base, the real credential, and an answer not compressed (so it can be metered). */
function onward(req: IncomingMessage, api: HeldApi, base: string) {
  const { upstream } = api;
  return {
    protocol: upstream.protocol,
    host: upstream.hostname,
    port: upstream.port || undefined,
    method: req.method,
    path: `${base}${req.url ?? '/'}`,
    headers: { ...withCredential(req.headers, api), 'accept-encoding': 'identity' },
  };
}

/** The CLI's headers for the real API: its host, and the real credential where the CLI sent the placeholder's header. */
function withCredential(headers: IncomingHttpHeaders, api: HeldApi): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers, host: api.upstream.host };
  for (const { spec, secret } of api.held) {
    if (headers[spec.header] !== undefined || api.held.length === 1) out[spec.header] = spec.scheme ? `${spec.scheme} ${secret}` : secret;
  }
  return out;
}
