import { execFileSync } from 'node:child_process';

/** A process as `ps` shows it: its parent, its resident memory in KiB, its command line. */
export interface PsRow {
  pid: number;
  ppid: number;
  rss: number;
  args: string;
}

/** Every process now. */
export function processes(): PsRow[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => row.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/)!)
    .map(([, pid, ppid, rss, args]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), args: args! }));
}

/** RSS of these processes and everything under them, in KiB. */
export function treeRss(roots: readonly number[], rows: readonly PsRow[] = processes()): number {
  const tree = new Set(roots);
  // Rows in pid order need not be in parent-first order: add children until none is new.
  for (let size = 0; size !== tree.size;) {
    size = tree.size;
    for (const row of rows) if (tree.has(row.ppid)) tree.add(row.pid);
  }
  return rows.filter((row) => tree.has(row.pid)).reduce((sum, row) => sum + row.rss, 0);
}
