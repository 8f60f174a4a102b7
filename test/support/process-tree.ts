import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessRow {
  pid: number;
  ppid: number;
  args: string;
}

/** The pid of the process that started `pid`. */
export function parentOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
}

/** The processes under `root` (its children, theirs, and so on), from `ps`. */
export function processesUnder(root: number): ProcessRow[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => row.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)!)
    .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args: args! }));
  const under = new Set([root]);
  // Rows in pid order need not be in parent-first order: add children until none is new.
  for (let size = 0; size !== under.size;) {
    size = under.size;
    for (const row of rows) if (under.has(row.ppid)) under.add(row.pid);
  }
  return rows.filter((row) => row.pid !== root && under.has(row.pid));
}

/**
 * The living processes (zombies aside: they are gone but for their exit status) whose
 * environment carries `JSONL_BRIDGE_DATA_DIR=<dataDir>`: whatever a bridge on that data
 * directory started, and what those started in turn, wherever they were re-parented.
 */
export function processesMarkedWith(dataDir: string): ProcessRow[] {
  const mark = `JSONL_BRIDGE_DATA_DIR=${dataDir}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark)) return [];
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (state === 'Z') return [];
        return [{ pid: Number(pid), ppid: Number(ppid), args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() }];
      } catch {
        return []; // gone meanwhile
      }
    });
}
