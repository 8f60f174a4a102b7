import { readdir, readFile } from 'node:fs/promises';
import type { Log } from '../log/logger.ts';

/** Every CLI the bridge (or a worker) starts carries these variables: its data directory, and the pid of the process that started it. */
export const OWNER_VARIABLE = 'JSONL_BRIDGE_DATA_DIR';
export const OWNER_PID_VARIABLE = 'JSONL_BRIDGE_OWNER_PID';

/** The marks for a CLI started by this process. */
export function ownerMarks(dataDir: string): Record<string, string> {
  return { [OWNER_VARIABLE]: dataDir, [OWNER_PID_VARIABLE]: String(process.pid) };
}

/**
 * A bridge or worker killed outright (SIGKILL, OOM, power) leaves its CLIs running in their
 * own process groups, talking to nobody. On the next start, find the group leaders that carry
 * our mark (for this data directory only, so two bridges on one machine leave each other
 * alone) and whose starter is gone, and stop their groups. A CLI whose parent is still the
 * process that started it belongs to a live bridge or worker sharing the directory. Linux
 * only: elsewhere there is no /proc and nothing is done.
 */
export async function reapOrphans(dataDir: string, log: Log): Promise<number> {
  const mark = `${OWNER_VARIABLE}=${dataDir}`;
  let pids: number[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return 0;
  }
  const leaders: number[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    try {
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      if (!environ.includes(mark)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid pgrp ...
      const [, ppid, pgrp] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      const starter = environ.find((entry) => entry.startsWith(`${OWNER_PID_VARIABLE}=`))?.slice(OWNER_PID_VARIABLE.length + 1);
      if (pgrp === pid && String(ppid) !== starter) leaders.push(pid);
    } catch {
      // gone already, or not ours to read
    }
  }
  for (const pid of leaders) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (leaders.length) log.warn(`stopped ${leaders.length} CLI process group(s) left running by a previous bridge or worker`);
  return leaders.length;
}
