import { lookup } from 'node:dns/promises';
import { BlockList, connect, isIP, type Server, type Socket } from 'node:net';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { allowedBy, type HostRule } from './host-rules.ts';
import { listenOpen } from './socket-relay.ts';

/*
 * The sandbox's only way out: an HTTP proxy on a Unix socket bound into it (socat makes it
 * 127.0.0.1:PORT inside, HTTP(S)_PROXY names it). HTTPS goes through CONNECT, unopened (no
 * TLS interception); plain HTTP is forwarded. A host is reached when a rule names it; an
 * address in a private, loopback or link-local range only when a rule names that host
 * exactly or the address itself, and the address connected to is the one checked (a name
 * that resolves somewhere else next time changes nothing).
 */

/** Addresses no sandbox reaches unless told: the host itself, the LAN, the cloud's metadata service. */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

export function isInternal(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  return INTERNAL.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** What a person said of a host not on the list: let the connection through, or refuse it (why, for the refusal). */
export type HostVerdict = { allowed: true } | { allowed: false; why: string };

/** Why a host no rule names is refused. */
export const NOT_LISTED = 'not on the list';

export interface EgressPolicy {
  /** The rules as they are now (a chat's /net list changes while its CLI runs). */
  rules(): readonly HostRule[];
  /** A connection refused, with why: said once per host by the caller. */
  onBlocked(host: string, why: string): void;
  /**
   * Where a person decides (a chat in `ask`): a host no rule names is asked about while its
   * connection waits (`gone` aborts when it closes meanwhile). Absent, or undefined from it:
   * refused at once.
   */
  ask?(host: string, port: number, gone: AbortSignal): Promise<HostVerdict> | undefined;
}

/** Where `host:port` may be reached: the address to connect to, or why not. */
export async function egressTarget(
  policy: Pick<EgressPolicy, 'rules'>,
  host: string,
  port: number,
  resolve: (name: string) => Promise<string[]> = async (name) => (await lookup(name, { all: true })).map((a) => a.address),
): Promise<{ address: string } | { refused: string }> {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  const rules = policy.rules();
  if (!allowedBy(rules, name, port)) return { refused: NOT_LISTED };
  let addresses: string[];
  try {
    addresses = isIP(name) ? [name] : await resolve(name);
  } catch {
    return { refused: 'no such host' };
  }
  const named = rules.some((rule) => !rule.wildcard && rule.host === name);
  const usable = addresses.filter((address) => !isInternal(address) || named || allowedBy(rules, address, port));
  return usable[0] ? { address: usable[0] } : { refused: `it resolves to an internal address (${addresses[0]})` };
}

/** Where `host:port` may be reached, once a person was asked where the policy asks: a host allowed so is named for this connection. */
async function decidedTarget(policy: EgressPolicy, host: string, port: number, inside: Socket): Promise<{ address: string } | { refused: string }> {
  const target = await egressTarget(policy, host, port);
  if (!('refused' in target) || target.refused !== NOT_LISTED || !policy.ask) return target;
  const gone = new AbortController();
  const onClose = () => gone.abort();
  inside.once('close', onClose);
  const asked = policy.ask(host, port, gone.signal);
  void asked?.finally(() => inside.off('close', onClose));
  if (!asked) return target;
  const verdict = await asked;
  if (!verdict.allowed) return { refused: verdict.why };
  const named: HostRule = { host: host.replace(/^\[|\]$/g, '').toLowerCase(), wildcard: false, port };
  return egressTarget({ rules: () => [...policy.rules(), named] }, host, port);
}

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
  const outside = connect({ host: target.address, port });
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
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return void res.writeHead(400).end('a proxy request names its absolute URL\n');
  }
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
    { host: target.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers: { ...headers, host: url.host } },
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
