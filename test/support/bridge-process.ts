import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { FAKE_AGENT } from './fake-cli.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** How long a test waits for a bridge or a worker to start: node starts in seconds on a loaded machine. */
export const START_WAIT_MS = 45_000;

/**
 * A doctor test's bound: each doctor runs every check, starting each CLI and a trial of the
 * walls, seconds on a quiet machine and a minute or more on a loaded one.
 */
export const DOCTOR_TEST_MS = 180_000;

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

function readable(line: string, entry: LogEntry | undefined): string {
  if (!entry) return line;
  const { level, msg, time: _time, pid: _pid, hostname: _host, ...fields } = entry;
  return `${level}: ${msg}${Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}`;
}

/**
 * The bridge as users run it (`node dist/server/main.js`, what `npm start` runs, built from
 * the sources by the suite's global setup), in a real process, so tests can signal it,
 * SIGKILL it and start it again on the same data.
 */
export function startBridgeProcess(env: Record<string, string>, args: string[] = [], input?: string, as?: RunAs): BridgeProcess {
  return startRepoProcess('main', env, args, input, as);
}

/** Another user than the test's (root) to run a process as: a bridge that is not root. */
export interface RunAs {
  uid: number;
  gid: number;
}

/** `npm run doctor`, in a real process (as another user with `as`). */
export function startDoctorProcess(env: Record<string, string>, args: string[] = [], as?: RunAs): BridgeProcess {
  return startRepoProcess('doctor', env, args, undefined, as);
}

/** A worker as users run it (`npm run worker`), in a real process. */
export function startWorkerProcess(env: Record<string, string>): BridgeProcess {
  return startRepoProcess('worker', env, []);
}

function startRepoProcess(script: 'main' | 'doctor' | 'worker', env: Record<string, string>, args: string[], input?: string, as?: RunAs): BridgeProcess {
  const child: ResultPromise = execa('node', [`dist/server/${script}.js`, ...args], {
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
  });
  let out = '';
  const err = new LogLines();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => err.add(chunk));
  const exited = child.then((result) => ({ code: result.exitCode, signal: result.signal }));
  return {
    pid: child.pid!,
    stderr: () => err.raw,
    log: () => err.readable(),
    logEntries: () => [...err.entries],
    stdout: () => out,
    kill: (signal) => child.kill(signal),
    exited,
    waitForLog: (pattern, timeoutMs = 20_000) => err.waitFor(pattern, timeoutMs, script),
  };
}

/**
 * A process's stderr as it comes: each whole line is parsed once, as it arrives, and a wait
 * is checked again on each chunk rather than on a timer (a test's log runs to thousands of
 * lines, and parsing all of them every few milliseconds cost a core's share under load).
 */
class LogLines {
  raw = '';
  readonly entries: LogEntry[] = [];
  /** The whole lines so far, readable, kept as one text: a wait tests it on every chunk. */
  private text = '';
  private partial = '';
  private readonly waiters = new Set<() => void>();

  add(chunk: string): void {
    this.raw += chunk;
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop()!;
    for (const line of parts.filter(Boolean)) {
      const entry = parseLogLine(line);
      if (entry) this.entries.push(entry);
      this.text += `${this.text ? '\n' : ''}${readable(line, entry)}`;
    }
    for (const check of this.waiters) check();
  }

  /** Every line so far, the last one too though it has no newline yet. */
  readable(): string {
    if (!this.partial) return this.text;
    return `${this.text ? `${this.text}\n` : ''}${readable(this.partial, parseLogLine(this.partial))}`;
  }

  waitFor(pattern: RegExp, timeoutMs: number, script: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      const check = () => {
        if (!pattern.test(this.readable())) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${script} never logged ${pattern}; it logged:\n${this.readable()}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}
