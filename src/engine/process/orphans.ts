import type { Log } from '../../kernel/log/logger.ts';
import { markedProcesses, signalIfThere } from './owner-marks.ts';

/**
 * A bridge or worker killed outright (SIGKILL, OOM, power) leaves its CLIs running in their
 * own process groups, talking to nobody. On the next start, find the group leaders that carry
 * our mark (for this data directory only, so two bridges on one machine leave each other
 * alone) and whose starter is gone, and stop their groups. A CLI whose parent is still the
 * process that started it belongs to a live bridge or worker sharing the directory. Linux
 * only: elsewhere there is no /proc and nothing is done.
 */
export async function reapOrphans(dataDir: string, log: Log): Promise<number> {
  const leaders = markedProcesses(dataDir)
    .filter(({ pid, ppid, pgrp, starter }) => pgrp === pid && String(ppid) !== starter)
    .map(({ pid }) => pid);
  for (const pid of leaders) signalIfThere(-pid, 'SIGKILL');
  if (leaders.length) log.warn(`stopped ${leaders.length} CLI process group(s) left running by a previous bridge or worker`);
  return leaders.length;
}
