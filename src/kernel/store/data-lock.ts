import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ConfigError } from '../errors/config-error.ts';

/** Who holds a data directory: written into its lock file. */
export interface Holder {
  pid: number;
  host: string;
  /** When it started, for the sentence that names it. */
  since: string;
  /** The process's start in clock ticks since boot (/proc/<pid>/stat): a pid used again by another process is not the holder. */
  start?: number;
}

/** The bridge's lock file in its data directory. */
export const BRIDGE_LOCK = 'bridge.lock';

/** A lock file being written by its taker is empty for a moment: read again for this long before it is taken for broken. */
const WRITING_MS = 2000;

/**
 * One process per data directory (or per worker's state): the lock file names the holder, and a
 * second process refuses to start, naming it. A lock whose process is gone (killed, the machine
 * restarted) is taken over: renamed away first, which only one of two takers can do, and
 * checked to be the dead one's, so two starting together never both take it. Released when the
 * process exits.
 */
export async function lockDataDir(file: string, what: string, fix: string): Promise<void> {
  const mine: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), ...optionalStart(process.pid) };
  const text = JSON.stringify(mine);
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, text, { flag: 'wx', mode: 0o600 });
      process.once('exit', () => releaseIfMine(file, text));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 20) throw error;
    }
    const found = await readFile(file, 'utf8').catch(() => undefined);
    if (found === undefined) continue; // gone in between: try again
    const holder = parse(found);
    if (!holder) {
      const age = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0);
      if (age < WRITING_MS) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
    } else if (alive(holder)) {
      const where = holder.host === mine.host ? `pid ${holder.pid}` : `pid ${holder.pid} on ${holder.host}`;
      throw new ConfigError(`${what} is in use by another jsonl-bridge (${where}, since ${holder.since}): stop that one first, or ${fix}`);
    }
    await takeOver(file, found);
  }
}

/** The process holding a lock file, while it runs: how the doctor tells the running bridge's ports from a conflict. */
export async function runningHolder(file: string): Promise<Holder | undefined> {
  const found = await readFile(file, 'utf8').catch(() => undefined);
  const holder = found === undefined ? undefined : parse(found);
  return holder && alive(holder) ? holder : undefined;
}

/** Moves a dead holder's lock away, unless another taker replaced it meanwhile (then it is put back). */
async function takeOver(file: string, dead: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch {
    return; // another taker moved it first
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved === dead) await unlink(aside).catch(() => undefined);
  else await rename(aside, file).catch(() => undefined);
}

function parse(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.since === 'string' ? (holder as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the holder still runs: on another machine it cannot be told, so it is taken as running. */
function alive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = startOf(holder.pid);
  return holder.start === undefined || start === undefined || start === holder.start;
}

function optionalStart(pid: number): { start?: number } {
  const start = startOf(pid);
  return start === undefined ? {} : { start };
}

/** Field 22 of /proc/<pid>/stat (after the command's parenthesised name, which may hold spaces). */
function startOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const value = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function releaseIfMine(file: string, text: string): void {
  try {
    if (readFileSync(file, 'utf8') === text) unlinkSync(file);
  } catch {
    // already gone
  }
}
