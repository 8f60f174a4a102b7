import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { FAKE_AGENT } from './fake-cli.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface BridgeProcess {
  readonly pid: number;
  /** Everything it wrote to stderr so far, as written. */
  stderr(): string;
  /**
   * Its log so far, a line per event as `level: message {fields}`: read from its JSON lines
   * (the format off a terminal); a line that is not JSON is kept as it is.
   */
  log(): string;
  /** Its log lines, parsed. */
  logEntries(): LogEntry[];
  stdout(): string;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | undefined; signal: string | undefined }>;
  /** Waits until `log()` matches. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

export interface LogEntry {
  level: string;
  msg: string;
  chat?: string | number;
  run?: string;
  [field: string]: unknown;
}

/** One line of a JSON log (pino's: level, time, pid, hostname, the fields, msg), or undefined. */
export function parseLogLine(line: string): LogEntry | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const entry = JSON.parse(line) as LogEntry;
    return typeof entry.level === 'string' && typeof entry.msg === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

function readable(line: string): string {
  const entry = parseLogLine(line);
  if (!entry) return line;
  const { level, msg, time: _time, pid: _pid, hostname: _host, ...fields } = entry;
  return `${level}: ${msg}${Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}`;
}

/**
 * The bridge as users run it (`node --import tsx src/main.ts`, what `npm start` runs), in a
 * real process, so tests can signal it, SIGKILL it and start it again on the same data.
 */
export function startBridgeProcess(env: Record<string, string>, args: string[] = [], input?: string, as?: RunAs): BridgeProcess {
  return startRepoProcess('src/main.ts', env, args, input, as);
}

/** Another user than the test's (root) to run a process as: a bridge that is not root. */
export interface RunAs {
  uid: number;
  gid: number;
}

/** `npm run doctor`, in a real process (as another user with `as`). */
export function startDoctorProcess(env: Record<string, string>, args: string[] = [], as?: RunAs): BridgeProcess {
  return startRepoProcess('src/doctor.ts', env, args, undefined, as);
}

/** A worker as users run it (`npm run worker`), in a real process. */
export function startWorkerProcess(env: Record<string, string>): BridgeProcess {
  return startRepoProcess('src/worker.ts', env, []);
}

function startRepoProcess(script: string, env: Record<string, string>, args: string[], input?: string, as?: RunAs): BridgeProcess {
  let out = '';
  let err = '';
  const child: ResultPromise = execa('node', ['--import', 'tsx', script, ...args], {
    cwd: REPO,
    // No walls unless a test is about them: the fake CLI logs to the test's folders, outside any.
    env: { BRIDGE_CLAUDE_COMMAND: FAKE_AGENT, BRIDGE_SANDBOX: 'off', ...env },
    reject: false,
    buffer: false,
    // A SIGTERM starts a drain that may rightly wait on work a test holds (up to BRIDGE_DRAIN_SECONDS):
    // execa's default SIGKILL 5 s later would cut it short on a slow machine. Tests send SIGKILL themselves.
    forceKillAfterDelay: false,
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
    ...(input !== undefined ? { input } : { stdin: 'ignore' }),
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = child.then((result) => ({ code: result.exitCode, signal: result.signal }));
  const log = () => err.split('\n').filter(Boolean).map(readable).join('\n');
  return {
    pid: child.pid!,
    stderr: () => err,
    log,
    logEntries: () => err.split('\n').flatMap((line) => parseLogLine(line) ?? []),
    stdout: () => out,
    kill: (signal) => child.kill(signal),
    exited,
    async waitForLog(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(log())) {
        if (Date.now() > deadline) throw new Error(`${script} never logged ${pattern}; it logged:\n${log()}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}
