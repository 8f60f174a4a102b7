import { readdirSync, readFileSync } from 'node:fs';

/** Every CLI the bridge (or a worker) starts carries these variables: its data directory, and the pid of the process that started it. */
export const OWNER_VARIABLE = 'JSONL_BRIDGE_DATA_DIR';
export const OWNER_PID_VARIABLE = 'JSONL_BRIDGE_OWNER_PID';

/** The marks for a CLI started by this process. */
export function ownerMarks(dataDir: string): Record<string, string> {
  return { [OWNER_VARIABLE]: dataDir, [OWNER_PID_VARIABLE]: String(process.pid) };
}

/** Sends `signal` to a process (a group, when negative) that may be gone already. */
export function signalIfThere(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // gone already
  }
}

/** A process that carries a data directory's mark in its environment: a CLI, or anything it started. */
export interface MarkedProcess {
  pid: number;
  ppid: number;
  /** Its process group. */
  pgrp: number;
  /** The pid of the bridge or worker that started it (its JSONL_BRIDGE_OWNER_PID), if it says. */
  starter?: string;
}

/**
 * The living processes (not zombies) that carry `dataDir`'s mark, this one aside, read from
 * /proc at once. Processes whose environment is not ours to read are not among them. Linux
 * only: elsewhere there is no /proc, and none are found.
 */
export function markedProcesses(dataDir: string): MarkedProcess[] {
  const mark = `${OWNER_VARIABLE}=${dataDir}`;
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
  const found: MarkedProcess[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    try {
      // A zombie's environment reads empty: it is gone but for its exit status.
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (!environ.includes(mark)) continue;
      const [state, ppid, pgrp] = procStat(pid);
      if (state === 'Z' || state === 'X') continue;
      const starter = environ.find((entry) => entry.startsWith(`${OWNER_PID_VARIABLE}=`))?.slice(OWNER_PID_VARIABLE.length + 1);
      found.push({ pid, ppid: Number(ppid), pgrp: Number(pgrp), starter });
    } catch {
      // gone already, or not ours to read
    }
  }
  return found;
}

/** The fields of /proc/<pid>/stat after the parenthesised command: state ppid pgrp ... */
export function procStat(pid: number | 'self'): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
