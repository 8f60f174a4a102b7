import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** /proc/net/tcp's state of a listening socket. */
const LISTEN = '0A';

/**
 * Whether process `pid` listens on TCP `port`: the inodes of its sockets (/proc/<pid>/fd)
 * among the listening ones of /proc/net/tcp and tcp6. Undefined where that cannot be read
 * (no /proc, or another user's process).
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  const sockets = new Set<string>();
  for (const fd of fds) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) sockets.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = parseInt(fields[1]?.split(':')[1] ?? '', 16);
      if (fields[3] === LISTEN && localPort === port && sockets.has(fields[9] ?? '')) return true;
    }
  }
  return false;
}
