import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { Holder } from '../../kernel/store/data-lock.ts';
import { fail, pass, type CheckResult } from '../../kernel/ports/check-result.ts';

const MIN_NODE_MAJOR = 20;
/** Below this, run logs and sessions soon fill the disk: a run's log alone may take a few MB. */
const MIN_FREE_BYTES = 200 * 1024 * 1024;

export function checkNode(version = process.versions.node): CheckResult {
  const major = Number(version.split('.')[0]);
  return major >= MIN_NODE_MAJOR
    ? pass('Node', version)
    : fail(
        'Node',
        `${version}, older than ${MIN_NODE_MAJOR}`,
        `Install Node ${MIN_NODE_MAJOR} or newer (https://nodejs.org, or nvm install ${MIN_NODE_MAJOR}).`,
      );
}

/**
 * The data directory: writable, readable by its owner only (it holds sessions, logs and the
 * audit trail), on a disk with room. A directory not made yet is fine when its parent is
 * writable: the bridge makes it, owner-only, at start.
 */
export async function checkDataDir(dir: string): Promise<CheckResult> {
  const subject = 'data directory';
  const info = await stat(dir).catch(() => undefined);
  if (!info) {
    const parent = nearestExisting(dir);
    if (!writableBy(parent))
      return fail(
        subject,
        `${dir} does not exist, and ${parent} is not writable`,
        `Create it (mkdir -m 700 ${dir}) or set BRIDGE_DATA_DIR to a writable place.`,
      );
    return withSpace(pass(subject, `${dir} will be made at start (owner-only)`), parent);
  }
  if (!info.isDirectory()) return fail(subject, `${dir} is not a directory`, 'Set BRIDGE_DATA_DIR to a directory.');
  if (!writableBy(dir))
    return fail(subject, `${dir} is not writable by this user`, `chown it to the user the bridge runs as, or set BRIDGE_DATA_DIR elsewhere.`);
  const mode = info.mode & 0o777;
  if (mode & 0o077)
    return fail(subject, `${dir} is readable by others (mode ${mode.toString(8)})`, `chmod 700 ${dir}: it holds sessions, logs and the audit trail.`);
  return withSpace(pass(subject, `${dir}, owner-only`), dir);
}

/** A bridge holds this data directory: said, since the ports it listens on are then in use, by it. */
export function checkRunningBridge(holder: Holder): CheckResult {
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return pass(
    'running bridge',
    `a bridge is running on this data directory (pid ${holder.pid}${where}, since ${holder.since}): the ports it listens on are its own`,
  );
}

async function withSpace(result: CheckResult, dir: string): Promise<CheckResult> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  const shown = `${(free / 1024 ** 3).toFixed(1)} GB free`;
  if (free < MIN_FREE_BYTES) return fail(result.subject, `${result.found}, only ${shown}`, `Free some space: at least ${MIN_FREE_BYTES / 1024 ** 2} MB.`);
  return { ...result, found: `${result.found}, ${shown}` };
}

/** Whether `uid` (the bridge's own when none) may make files in `dir`, as the system answers for it. */
export function writableBy(dir: string, uid?: number, gid?: number): boolean {
  try {
    if (uid === undefined) accessSync(dir, constants.W_OK | constants.X_OK);
    else execFileSync('sh', ['-c', 'test -w "$1" && test -x "$1"', 'sh', dir], { uid, gid: gid ?? uid, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The path itself, or the nearest folder above it that exists. */
export function nearestExisting(path: string): string {
  for (let dir = path; ; dir = dirname(dir)) if (existsSync(dir) || dirname(dir) === dir) return dir;
}
