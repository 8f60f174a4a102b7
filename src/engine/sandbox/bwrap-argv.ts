import { lstatSync, readlinkSync } from 'node:fs';
import { isInside } from '../projects/directories.ts';

/*
 * The walls of one CLI process, as bubblewrap's command line. Nothing of the host is there
 * unless named: the system's directories and the /etc files a program needs, read-only, one
 * by one (never `/`, so never the bridge's data directory or another chat's home); the CLI's
 * installation read-only; its working directory; its own home, /tmp, /proc and /dev; no
 * network but its own loopback, where socat forwards the ports of what the bridge serves it
 * through Unix sockets bound in.
 */

/** Where the Unix sockets of what the bridge serves a sandbox appear inside it. */
export const SOCKETS_INSIDE = '/run/jsonl-bridge';

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const ETC_FILES = [
  '/etc/passwd',
  '/etc/group',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/nsswitch.conf',
  '/etc/resolv.conf',
  '/etc/services',
  '/etc/protocols',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/pki',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/os-release',
  '/etc/gitconfig',
  '/etc/mime.types',
  '/etc/bash.bashrc',
  '/etc/profile',
  '/etc/environment',
  '/etc/inputrc',
];

/** How the system's directories appear: bound read-only, or (merged /usr) the same link. */
export type SystemEntry = { bind: string } | { link: string; target: string };

/** The system's directories as this machine has them, read once at start. */
export function systemEntries(): SystemEntry[] {
  const entries: SystemEntry[] = [];
  for (const dir of SYSTEM_DIRS) {
    try {
      const info = lstatSync(dir);
      if (info.isSymbolicLink()) entries.push({ link: dir, target: readlinkSync(dir) });
      else if (info.isDirectory()) entries.push({ bind: dir });
    } catch {
      // not on this machine
    }
  }
  return entries;
}

/** A loopback port inside, forwarded to a Unix socket (a name in the sandbox's sockets folder). */
export interface Forward {
  port: number;
  socket: string;
}

export interface WallPlan {
  system: SystemEntry[];
  /** Read-only besides the system: the CLI's installation, the runtime it needs, files the bridge wrote for this turn. */
  readOnly: string[];
  cwd: string;
  /** False in `safe`: the working directory is read-only too. */
  writableCwd: boolean;
  /** The sandbox's own home on the host, and where it appears inside ($HOME). */
  home: { host: string; inside: string };
  /**
   * The home's configuration (operator-config.ts): its folders bound onto themselves (a mount
   * cannot be renamed, so neither can they), then each file or folder read-only over the home.
   */
  homeConfig?: { pinned: { from: string; to: string }[]; readOnly: { from: string; to: string }[] };
  /** The host folder of the sandbox's Unix sockets, seen inside at SOCKETS_INSIDE. */
  sockets: string;
  /**
   * The bridge's own places (its data directory, the sandboxes' homes, the agent space): where
   * one lies inside what is bound, an empty folder no one writes is over it, with what
   * of this process lies below it (its worktree, its turn's files) bound again on top.
   */
  masked?: string[];
  forwards: Forward[];
  socat: string;
  command: string;
  args: string[];
}

export function bwrapArgv(plan: WallPlan): string[] {
  const argv: string[] = [];
  for (const entry of plan.system) argv.push(...('bind' in entry ? ['--ro-bind', entry.bind, entry.bind] : ['--symlink', entry.target, entry.link]));
  for (const file of ETC_FILES) argv.push('--ro-bind-try', file, file);
  argv.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', '/run');
  argv.push('--bind', plan.home.host, plan.home.inside);
  for (const dir of plan.homeConfig?.pinned ?? []) argv.push('--bind', dir.from, dir.to);
  for (const entry of plan.homeConfig?.readOnly ?? []) argv.push('--ro-bind', entry.from, entry.to);
  // After the home: an installation in the uid's home (a checkout's node_modules) is seen over it.
  for (const path of plan.readOnly) argv.push('--ro-bind', path, path);
  argv.push(plan.writableCwd ? '--bind' : '--ro-bind', plan.cwd, plan.cwd);
  argv.push('--bind', plan.sockets, SOCKETS_INSIDE);
  argv.push(...masks(plan));
  argv.push('--chdir', plan.cwd);
  argv.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try');
  // No --new-session: what runs inside stays in the process group bwrap leads, which a stop
  // signals whole; its input is never a terminal, so there is no TIOCSTI to fear.
  argv.push('--hostname', 'sandbox', '--die-with-parent', '--cap-drop', 'ALL');
  argv.push('--', '/bin/sh', '-c', forwardingScript(plan.socat, plan.forwards), 'jsonl-bridge-sandbox', plan.command, ...plan.args);
  return argv;
}

/**
 * Each masked place that shows through a bind, or holds one: an empty tmpfs over it, this
 * process's own paths below it bound again, then made read-only. (No `--perms`: bubblewrap
 * before 0.5, in Debian 11 and RHEL 8, has none, and an empty folder shows nothing anyway.)
 */
function masks(plan: WallPlan): string[] {
  const shown = [...plan.system.flatMap((entry) => ('bind' in entry ? [entry.bind] : [])), ...plan.readOnly, plan.cwd];
  const again: [how: string, host: string, inside: string][] = [
    ...plan.readOnly.map((path): [string, string, string] => ['--ro-bind', path, path]),
    ['--bind', plan.home.host, plan.home.inside],
    [plan.writableCwd ? '--bind' : '--ro-bind', plan.cwd, plan.cwd],
  ];
  const argv: string[] = [];
  const masked = plan.masked ?? [];
  for (const place of masked) {
    // Masked where a bind shows it or is made inside it (a run's worktree in it: the rest of it stays out of sight, unwritable);
    // a place inside another (the homes in the data directory) is hidden with it.
    if (!shown.some((path) => isInside(place, path) || isInside(path, place)) || masked.some((outer) => outer !== place && isInside(place, outer))) continue;
    argv.push('--tmpfs', place);
    for (const [how, host, inside] of again) if (isInside(inside, place) && inside !== place) argv.push(how, host, inside);
    argv.push('--remount-ro', place);
  }
  return argv;
}

/**
 * What runs first inside: a socat per forward, listening on the sandbox's own loopback, then
 * (once each listens, so the CLI's first connection finds it) the CLI in its place.
 */
export function forwardingScript(socat: string, forwards: Forward[]): string {
  const lines = forwards.map((f) => `${socat} TCP-LISTEN:${f.port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${SOCKETS_INSIDE}/${f.socket} 2>/dev/null &`);
  for (const f of forwards) {
    const listening = `:${f.port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A`;
    lines.push(`i=0; while ! grep -q '${listening}' /proc/net/tcp && [ $i -lt 1000 ]; do i=$((i+1)); sleep 0.005; done`);
  }
  lines.push('exec "$@"');
  return lines.join('\n');
}
