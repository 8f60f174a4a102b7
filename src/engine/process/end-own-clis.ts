import type { Log } from '../../kernel/log/logger.ts';
import { markedProcesses, procStat, signalIfThere, type MarkedProcess } from './owner-marks.ts';

/** How long what this process started gets between SIGTERM and SIGKILL as it leaves at once. */
export const LEAVING_GRACE_MS = 2000;
/** How long, after SIGKILL, it waits for them to be gone: a process stuck in the kernel may take a moment. */
export const LEAVING_KILL_WAIT_MS = 3000;
/** How often it looks again. */
const POLL_MS = 50;

/**
 * Ends every process this one started that is still alive (each CLI and whatever it started,
 * inside its walls or not: all carry this process's mark) and waits until they are gone,
 * within a bounded time: SIGTERM to each one's process group (and to it), up to `graceMs` for
 * them to go, then SIGKILL, and up to `killWaitMs` more. Returns how many were ended and the
 * pids still there after all that.
 *
 * Synchronous on purpose: it runs as the process leaves at once (a second signal), and nothing
 * of the bridge may react meanwhile. A turn that saw its CLI end would record itself ended, and
 * it must stay in flight, to be resumed at the next start.
 */
export function endOwnClis(dataDir: string, { graceMs = LEAVING_GRACE_MS, killWaitMs = LEAVING_KILL_WAIT_MS } = {}): { ended: number; left: number[] } {
  const ours = () => markedProcesses(dataDir).filter((found) => found.starter === String(process.pid));
  let alive = ours();
  const ended = new Set(alive.map((found) => found.pid));
  if (!alive.length) return { ended: 0, left: [] };
  signal(alive, 'SIGTERM');
  alive = whileAlive(ours, graceMs);
  if (alive.length) {
    for (const found of alive) ended.add(found.pid);
    signal(alive, 'SIGKILL');
    alive = whileAlive(ours, killWaitMs);
  }
  return { ended: ended.size, left: alive.map((found) => found.pid) };
}

/** Looks again until none is alive or `ms` have passed; returns those still alive. */
function whileAlive(ours: () => MarkedProcess[], ms: number): MarkedProcess[] {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = ours();
    if (!alive.length || Date.now() >= deadline) return alive;
    sleepSync(POLL_MS);
  }
}

/** To each one's process group, and to it (one that left its group). Never to this process's own group: a CLI check shares it. */
function signal(processes: MarkedProcess[], name: NodeJS.Signals): void {
  const own = ownGroup();
  for (const { pid, pgrp } of processes) {
    for (const target of pgrp !== own && pgrp > 1 ? [-pgrp, pid] : [pid]) signalIfThere(target, name);
  }
}

function ownGroup(): number | undefined {
  try {
    return Number(procStat('self')[2]);
  } catch {
    return undefined;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
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
  const leaders = markedProcesses(dataDir)
    .filter(({ pid, ppid, pgrp, starter }) => pgrp === pid && String(ppid) !== starter)
    .map(({ pid }) => pid);
  for (const pid of leaders) signalIfThere(-pid, 'SIGKILL');
  if (leaders.length) log.warn(`stopped ${leaders.length} CLI process group(s) left running by a previous bridge or worker`);
  return leaders.length;
}
