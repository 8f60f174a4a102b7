import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../engine/sandbox/sandbox-decision.ts';
import { lowerWalls, raiseWalls } from '../../engine/sandbox/walls.ts';
import { type WalledClis } from '../../engine/sandbox/wall-scope.ts';

/**
 * The walls the bridge would raise, raised for the doctor, which changes nothing: each
 * sandbox's home, its sockets and the working directory of what runs inside are in a folder
 * of their own, the sandbox uid's, removed after `work`. `work` is given that working
 * directory, or nothing when the sandbox is off.
 */
export async function inTrialWalls<T>(sandbox: Sandbox, adapters: WalledClis, work: (cwd: string | undefined) => Promise<T>): Promise<T> {
  const { decision } = sandbox;
  if (!decision.on) return work(undefined);
  const { uid, gid, name } = decision.uid;
  // In /tmp for an agent user, as its space is: the doctor's TMPDIR may be a folder no other user enters.
  const root = mkdtempSync(join(name ? '/tmp' : tmpdir(), 'jsonl-bridge-doctor-'));
  try {
    const homes = join(root, 'homes');
    const cwd = join(root, 'work');
    for (const dir of [homes, cwd]) mkdirSync(dir, { mode: 0o700 });
    for (const dir of [root, homes, cwd]) chownSync(dir, uid, gid);
    raiseWalls(decision, { homes, sockets: root, allow: sandbox.allow, internal: sandbox.internal, adapters });
    return await work(cwd);
  } finally {
    lowerWalls();
    rmSync(root, { recursive: true, force: true });
  }
}
