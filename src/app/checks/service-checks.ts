import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { createSecureContext } from 'node:tls';
import { Redis } from 'ioredis';
import type { ApiConfig } from '../../surfaces/api/api-settings.ts';
import type { McpListen } from '../../work/tools/mcp-listen.ts';
import type { WebConfig } from '../../surfaces/web/web-settings.ts';
import type { Hook } from '../../services/hooks/hooks-file.ts';
import { PAGES_DIR, pagesBuilt } from '../../surfaces/web/pages.ts';
import type { TranscriberConfig } from '../../engine/files/transcriber.ts';
import { describeRedis } from '../../work/workers/redis.ts';
import type { Holder } from '../../kernel/store/data-lock.ts';
import { fail, firstLine, pass, warn, type CheckResult } from '../../kernel/ports/check-result.ts';

const ANSWER_WITHIN_MS = 5000;

/**
 * Whether `host:port` (set by `variable`) can be listened on now (then let go: the doctor
 * changes nothing): found free or the running bridge's (`more` said after it), or why not. A
 * port in use by the bridge running on this data directory is its own, not a conflict.
 * `shown`: the port as the line writes it.
 */
export async function checkListen(
  subject: string,
  { host, port }: { host: string; port: number },
  variable: string,
  running: Holder | undefined,
  more = '',
  shown: number | string = port,
): Promise<CheckResult> {
  const server = createServer();
  // Why not, or whether the running bridge has it.
  const bound = await new Promise<string | { bridge?: Holder }>((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') return resolve(error.message);
      const owner = running && running.host === hostname() ? listensOn(running.pid, port) : false;
      if (owner !== false) return resolve({ bridge: running! });
      resolve(running ? `the port is in use, and not by the running bridge (pid ${running.pid})` : 'the port is in use');
    });
    server.listen(port, host, () => server.close(() => resolve({})));
  });
  if (typeof bound === 'string') return fail(subject, `cannot listen on ${host}:${port}: ${bound}`, `Set ${variable} to a free host:port of this machine.`);
  return pass(subject, `${bound.bridge ? `${host}:${shown} is the running bridge's (pid ${bound.bridge.pid})` : `can listen on ${host}:${shown}`}${more}`);
}

export async function checkMcpListen(where: McpListen, running?: Holder): Promise<CheckResult> {
  const reached = where.publicUrl ? `, reached at ${where.publicUrl}` : '';
  return checkListen('MCP endpoint', where, 'BRIDGE_MCP_LISTEN', running, reached, where.port === 0 ? '<a free port>' : where.port);
}

export async function checkApiAddress(api: ApiConfig, running?: Holder): Promise<CheckResult[]> {
  const listening = await checkListen('SubagentService', api, 'BRIDGE_API_ADDR', running);
  if (!listening.ok) return [listening];
  return [
    listening,
    ...(api.tls ? [checkTlsPair('SubagentService TLS', api.tls, 'BRIDGE_API')] : []),
    api.tokens.length
      ? pass('SubagentService clients', api.tokens.map((t) => t.name).join(', '))
      : fail('SubagentService clients', 'BRIDGE_API_TOKENS is empty, so every call is refused', 'Set BRIDGE_API_TOKENS=name=<a token of 16+ characters>.'),
  ];
}

/** The web server: its address, its certificate, its pages built, and whether a Mini App can open it (HTTPS). */
export async function checkWebAddress(web: WebConfig, running?: Holder, pagesDir = PAGES_DIR): Promise<CheckResult[]> {
  const https = web.url.startsWith('https:');
  const listening = await checkListen('web server', web, 'BRIDGE_WEB_ADDR', running, `, reached at ${web.url}${https ? '' : ' (no Mini App: it needs HTTPS)'}`);
  if (!listening.ok) return [listening];
  return [
    listening,
    ...(web.tls ? [checkTlsPair('web server TLS', web.tls, 'BRIDGE_WEB')] : []),
    pagesBuilt(pagesDir)
      ? pass('web pages', `built in ${pagesDir}`)
      : fail('web pages', `not built (${pagesDir} has no index.html)`, 'Run npm run build (npm ci does it too).'),
  ];
}

/** A certificate and its key belong together. */
function checkTlsPair(subject: string, tls: { cert: Buffer; key: Buffer }, prefix: string): CheckResult {
  try {
    createSecureContext({ cert: tls.cert, key: tls.key });
    return pass(subject, 'the certificate and key belong together');
  } catch (error) {
    return fail(
      subject,
      `the certificate and key are unusable: ${firstLine((error as Error).message)}`,
      `Point ${prefix}_TLS_CERT and ${prefix}_TLS_KEY at a PEM certificate and its own key.`,
    );
  }
}

/** Redis, asked once (no retries): it answers PING with these credentials, and its version. */
export async function checkRedis(url: string): Promise<CheckResult> {
  const subject = 'Redis';
  const where = describeRedis(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: ANSWER_WITHIN_MS,
    enableOfflineQueue: false,
  });
  // What went wrong comes as an event (refused, a refused AUTH); the command then only fails with "Connection is closed".
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
    return pass(subject, `${where} answers (Redis ${version})`);
  } catch (error) {
    const message = firstLine((cause ?? (error as Error)).message);
    if (/WRONGPASS|NOAUTH|NOPERM/.test(message))
      return fail(subject, `${where} refused the credentials: ${message}`, 'Fix the user and password in BRIDGE_REDIS_URL.');
    return fail(subject, `${where} does not answer: ${message}`, 'Start Redis (apt-get install redis-server), or fix the host and port in BRIDGE_REDIS_URL.');
  } finally {
    redis.disconnect();
  }
}

/** The transcription API: its model list answers with the key (OpenAI, Groq and local whisper servers all have one). */
export async function checkTranscription(config: TranscriberConfig): Promise<CheckResult> {
  const subject = 'transcription';
  const url = `${config.url.replace(/\/+$/, '')}/models`;
  try {
    const response = await fetch(url, { headers: config.key ? { authorization: `Bearer ${config.key}` } : {}, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    if (response.status === 401 || response.status === 403)
      return fail(subject, `${config.url} refused the key (${response.status})`, 'Set BRIDGE_TRANSCRIBE_KEY to a key this API accepts.');
    if (!response.ok && response.status !== 404)
      return fail(subject, `${config.url} answered ${response.status}`, 'Check BRIDGE_TRANSCRIBE_URL: it is the API base, like http://127.0.0.1:8000/v1.');
    return pass(subject, `${config.url} answers (model ${config.model})`);
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    return fail(subject, `${config.url} does not answer: ${firstLine(cause)}`, 'Start the transcription server, or fix BRIDGE_TRANSCRIBE_URL.');
  }
}

/** The webhooks of hooks.json (read and checked with the configuration): how many, and whether the web server serves them. */
export function checkHooks(hooks: readonly Hook[], web: WebConfig | undefined): CheckResult {
  const names = hooks.map((hook) => hook.name).join(', ');
  if (!web) return warn('webhooks', `${hooks.length} in hooks.json (${names}), but the web server is off`, 'Set BRIDGE_WEB_ADDR: webhooks are served there.');
  return pass('webhooks', `${hooks.length} in hooks.json, at ${web.url}/hooks/<name>: ${names}`);
}

/** /proc/net/tcp's state of a listening socket. */
const LISTEN = '0A';

/**
 * Whether process `pid` listens on TCP `port`: the inodes of its sockets (/proc/<pid>/fd)
 * among the listening ones of /proc/net/tcp and tcp6. Undefined where that cannot be read
 * (no /proc, or another user's process).
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  const sockets = new Set<string>();
  for (const fd of fds) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) sockets.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = parseInt(fields[1]?.split(':')[1] ?? '', 16);
      if (fields[3] === LISTEN && localPort === port && sockets.has(fields[9] ?? '')) return true;
    }
  }
  return false;
}
