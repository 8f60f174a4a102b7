import { connect } from 'node:net';
import { execa, type ResultPromise } from 'execa';
import { Redis } from 'ioredis';
import { tempDir } from './bridge-process.ts';
import { freePort } from './free-port.ts';

/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it) on a free port of its own,
 * with a password and an append-only file, so a restart keeps the queue as a production Redis
 * would.
 */
export interface RedisServer {
  /** With the password: what BRIDGE_REDIS_URL is set to. */
  readonly url: string;
  readonly password: string;
  readonly port: number;
  /** Stops it (SIGTERM: it writes its data) and starts it again on the same files and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and leaves it stopped (until `start`). */
  halt(): Promise<void>;
  start(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await tempDir('redis-');
  const port = await freePort();
  const password = `test-${Math.random().toString(36).slice(2)}-pass`;
  let child: ResultPromise | undefined;
  const start = async () => {
    let output = '';
    child = execa(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir.path, '--requirepass', password, '--appendonly', 'yes', '--save', '', '--daemonize', 'no'],
      { reject: false, buffer: false, stdin: 'ignore' },
    );
    const ready = new Promise<void>((resolve, reject) => {
      child!.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      });
      void child!.then((result) =>
        reject(
          new Error(
            `redis-server exited (${result.exitCode ?? result.signal}) before it was ready${result.failed ? `: ${result.shortMessage}` : ''}\n${output}`,
          ),
        ),
      );
    });
    await ready;
  };
  const halt = async () => {
    child?.kill('SIGTERM');
    await child;
    child = undefined;
  };
  await start();
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    password,
    port,
    start,
    halt,
    async restart() {
      await halt();
      await start();
    },
    async stop() {
      await halt();
      await dir.remove();
    },
  };
}

/**
 * Every key Redis holds and every value in it, read by type (not DUMP, whose encoding
 * compresses long strings): what a secret scan looks through.
 */
export async function redisContents(url: string): Promise<string> {
  const client = new Redis(url);
  try {
    const parts: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      const value =
        type === 'string'
          ? await client.get(key)
          : type === 'hash'
            ? await client.hgetall(key)
            : type === 'list'
              ? await client.lrange(key, 0, -1)
              : type === 'set'
                ? await client.smembers(key)
                : type === 'zset'
                  ? await client.zrange(key, 0, -1, 'WITHSCORES')
                  : type === 'stream'
                    ? await client.xrange(key, '-', '+')
                    : `(${type})`;
      parts.push(`${key} ${JSON.stringify(value)}`);
    }
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}

/** What a reader with MONITOR sees: each command any client sends, as its arguments. */
export interface RedisMonitor {
  readonly seen: string[][];
  close(): void;
}

/**
 * Everything any client sends Redis from now on, as a reader with MONITOR sees it. Over a
 * plain socket: ioredis's monitor mode could take a MONITOR line that came with its +OK for a
 * reply, and fail with "Command queue state error" on a loaded machine.
 */
export async function monitorRedis(server: Pick<RedisServer, 'port' | 'password'>): Promise<RedisMonitor> {
  const socket = connect(server.port, '127.0.0.1');
  const seen: string[][] = [];
  let buffered = '';
  let answered = 0;
  let monitoring!: (error?: Error) => void;
  const ready = new Promise<void>((resolve, reject) => (monitoring = (error) => (error ? reject(error) : resolve())));
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      // AUTH's +OK and MONITOR's, then one line per command: +<time> [<db> <client>] "arg" "arg"…
      if (answered < 2) {
        if (line !== '+OK') monitoring(new Error(`MONITOR: Redis answered ${line}`));
        if (++answered === 2) monitoring();
        continue;
      }
      const args = /^\+\d+\.\d+ \[[^\]]*\] (.*)$/.exec(line)?.[1];
      if (args !== undefined) seen.push(monitorArgs(args));
    }
  });
  socket.write(`AUTH ${server.password}\r\nMONITOR\r\n`);
  await ready;
  return { seen, close: () => socket.destroy() };
}

/** MONITOR's quoted arguments, unescaped (Redis writes them as sdscatrepr does), as UTF-8 text. */
function monitorArgs(text: string): string[] {
  const args: string[] = [];
  const quoted = /"((?:[^"\\]|\\.)*)"/g;
  for (const [, body] of text.matchAll(quoted)) {
    const bytes = body!.replace(/\\(x[0-9a-f]{2}|.)/g, (_, escape: string) =>
      escape.length === 3 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : ({ n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' }[escape] ?? escape),
    );
    args.push(Buffer.from(bytes, 'latin1').toString('utf8'));
  }
  return args;
}
