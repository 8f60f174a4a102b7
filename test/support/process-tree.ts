import { execFileSync } from 'node:child_process';

export interface ProcessRow {
  pid: number;
  ppid: number;
  args: string;
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
