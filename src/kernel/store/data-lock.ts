import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ConfigError } from '../errors/config-error.ts';
import { jsonOf } from '../protocols/decoder.ts';

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
/** How long a start tries to take the lock, among others taking it at once, before it gives up. */
const TRYING_MS = 10_000;

/**
 * One process per data directory (or per worker's state): the lock file names the holder, and a
 * second process refuses to start, naming it. A lock whose process is gone (killed, the machine
 * restarted) is taken over: removed by one taker at a time, and only while it is still the
 * dead one's, so two starting together never both take it. Released when the process exits.
 */
export async function lockDataDir(file: string, what: string, fix: string): Promise<void> {
  const mine: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), start: startOf(process.pid) };
  const text = JSON.stringify(mine);
  // Past this, something keeps making and removing the lock file: said as the error it is.
  const deadline = Date.now() + TRYING_MS;
  for (;;) {
    try {
      await writeFile(file, text, { flag: 'wx', mode: 0o600 });
      process.once('exit', () => releaseIfMine(file, text));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > deadline) throw error;
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

/**
 * Removes a dead holder's lock, unless another taker replaced it meanwhile: one taker at a time
 * looks and removes, holding the lock's guard file (`<lock>.takeover`), so a lock another taker
 * has just written is never the one removed. A guard left by a taker that died (it is held for
 * a moment only) is removed once it is older than GUARD_STALE_MS.
 */
async function takeOver(file: string, dead: string): Promise<void> {
  const guard = `${file}.takeover`;
  try {
    await writeFile(guard, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = Date.now() - ((await stat(guard).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (age > GUARD_STALE_MS) await unlink(guard).catch(() => undefined);
    else await new Promise((resolve) => setTimeout(resolve, 20));
    return; // the caller tries again
  }
  try {
    if ((await readFile(file, 'utf8').catch(() => undefined)) === dead) await unlink(file).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/** A takeover's guard is held for a read and a removal: one this old was left by a taker that died. */
const GUARD_STALE_MS = 10_000;

function parse(text: string): Holder | undefined {
  const holder = jsonOf<Partial<Holder> | null>(text);
  return typeof holder?.pid === 'number' && typeof holder.host === 'string' && typeof holder.since === 'string' ? (holder as Holder) : undefined;
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
