import { readdir, readFile } from 'node:fs/promises';

/** Every CLI the bridge starts carries this variable, naming the bridge's data directory. */
export const OWNER_VARIABLE = 'JSONL_BRIDGE_DATA_DIR';

/**
 * A bridge killed outright (SIGKILL, OOM, power) leaves its CLIs running in their own process
 * groups, talking to nobody. On the next start, find the group leaders that carry our mark
 * (for this data directory only, so two bridges on one machine leave each other alone) and
 * stop their groups. Linux only: elsewhere there is no /proc and nothing is done.
 */
export async function reapOrphans(dataDir: string, log: (line: string) => void): Promise<number> {
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
      const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
      if (!environ.split('\0').includes(mark)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid pgrp ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp === pid) leaders.push(pid);
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
  if (leaders.length) log(`stopped ${leaders.length} CLI process group(s) left running by a previous bridge`);
  return leaders.length;
}
