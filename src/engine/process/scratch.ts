import { mkdtempSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from '../../kernel/log/logger.ts';

const NAME = /^jsonl-bridge-[a-z]+-(\d+)-/;

/**
 * An owner-only folder in the temp directory for what a process keeps there for a while (a
 * turn's prompt file, spare pipes). Its name carries the process's pid: a process killed
 * outright never removes its folders, and the next start tells them by the pid (see
 * `removeLeftScratch`).
 */
export function scratchFolder(what: string, parent = tmpdir()): string {
  return mkdtempSync(join(parent, `jsonl-bridge-${what}-${process.pid}-`));
}

/**
 * Removes the scratch folders of this user whose process is gone: left by a bridge or worker
 * killed mid-turn, they may hold a prompt. A folder whose pid now belongs to another
 * process stays until that one is gone too.
 */
export async function removeLeftScratch(log: Log, parent = tmpdir()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const path = join(parent, name);
    try {
      if ((await stat(path)).uid !== process.getuid?.()) continue;
      await rm(path, { recursive: true, force: true });
      removed++;
    } catch {
      // gone already, or not ours
    }
  }
  if (removed) log.info(`removed ${removed} temporary folder(s) left by a previous bridge or worker`);
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
