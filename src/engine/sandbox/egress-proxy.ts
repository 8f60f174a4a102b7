import { connect, type LookupFunction, type Server, type Socket } from 'node:net';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { egressTarget, type EgressPolicy, type EgressTarget } from './egress-decision.ts';
import { listenOpen } from './socket-relay.ts';

/*
 * The sandbox's only way out: an HTTP proxy on a Unix socket bound into it (socat makes it
 * 127.0.0.1:PORT inside, HTTP(S)_PROXY names it). HTTPS goes through CONNECT, unopened (no
 * TLS interception); plain HTTP is forwarded. Where each connection may go is decided in
 * egress-decision.ts; it goes to the address decided there, by number, never resolved again.
 */

/** Where `host:port` may be reached, decided while the connection waits (`inside`'s close withdraws a question put meanwhile). */
async function decidedTarget(policy: EgressPolicy, host: string, port: number, inside: Socket): Promise<EgressTarget> {
  const gone = new AbortController();
  const onClose = () => gone.abort();
  inside.once('close', onClose);
  try {
    return await egressTarget(policy, host, port, gone.signal);
  } finally {
    inside.off('close', onClose);
  }
}

/** The connection goes to the address checked, a number: were anything to resolve a name here, it fails instead. */
const notAgain: LookupFunction = (hostname, _options, callback) => callback(new Error(`${hostname} would be resolved again`), '', 4);

export function egressProxy(path: string, policy: EgressPolicy): Server {
  // A connection whose decision failed (a bug, never the CLI's doing) is dropped, not the bridge.
  const server = createServer((req, res) => void forward(req, res, policy).catch(() => res.destroy()));
  server.on('connect', (req: IncomingMessage, inside: Socket, head: Buffer) => void tunnel(req, inside, head, policy).catch(() => inside.destroy()));
  listenOpen(server, path);
  return server;
}

async function tunnel(req: IncomingMessage, inside: Socket, head: Buffer, policy: EgressPolicy): Promise<void> {
  inside.on('error', () => inside.destroy());
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
  if (!match) return void inside.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  const host = match[1]!.replace(/^\[|\]$/g, '');
  const port = Number(match[2]);
  const target = await decidedTarget(policy, host, port, inside);
  // Gone while a person was asked (its own timeout): nothing to answer.
  if (inside.destroyed) return;
  if ('refused' in target) {
    policy.onBlocked(host, target.refused);
    return void inside.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nblocked by the bridge's sandbox: ${host} (${target.refused})\n`);
  }
  const outside = connect({ host: target.address, port, lookup: notAgain });
  outside.once('connect', () => {
    inside.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) outside.write(head);
    inside.pipe(outside).pipe(inside);
  });
  outside.on('error', () => {
    if (!inside.destroyed) inside.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  inside.on('close', () => outside.destroy());
}

async function forward(req: IncomingMessage, res: ServerResponse, policy: EgressPolicy): Promise<void> {
  if (!URL.canParse(req.url ?? '')) return void res.writeHead(400).end('a proxy request names its absolute URL\n');
  const url = new URL(req.url!);
  if (url.protocol !== 'http:') return void res.writeHead(400).end('only http:// is forwarded; https goes through CONNECT\n');
  const port = Number(url.port || 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const target = await decidedTarget(policy, host, port, req.socket);
  if (res.destroyed) return;
  if ('refused' in target) {
    policy.onBlocked(host, target.refused);
    return void res.writeHead(403, { 'content-type': 'text/plain' }).end(`blocked by the bridge's sandbox: ${host} (${target.refused})\n`);
  }
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !/^proxy-/i.test(name)));
  const out = httpRequest(
    { host: target.address, port, lookup: notAgain, method: req.method, path: `${url.pathname}${url.search}`, headers: { ...headers, host: url.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  req.pipe(out);
}
