import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The user scripts/test-setup.sh makes for agents (useradd --create-home jsonl-agent). */
export const AGENT_USER = 'jsonl-agent';

/** Its uid and gid, or undefined when this machine has no such user. */
export function agentIds(): { uid: number; gid: number } | undefined {
  try {
    return { uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    return undefined;
  }
}

const idOf = (flag: string) => Number(execFileSync('id', [flag, AGENT_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());

/** Why a test that switches to the agent user cannot run here; undefined when it can. */
export function cannotSwitchUser(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root, to run agents as another user';
  if (!agentIds()) return `needs the user ${AGENT_USER} (useradd --create-home --shell /bin/bash ${AGENT_USER}; sudo bash scripts/test-setup.sh makes it)`;
  // The agent runs this checkout's fake CLI and node_modules: every folder above it must be passable to it.
  if (!agentReaches(join(REPO_ROOT, 'package.json')))
    return `needs ${AGENT_USER} to reach this checkout (${REPO_ROOT}): make the folders above it passable (chmod o+x), as scripts/test-setup.sh does`;
  return undefined;
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function agentReaches(path: string): boolean {
  try {
    execFileSync('runuser', ['-u', AGENT_USER, '--', 'test', '-r', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A project the bridge's user (root) owns and the agent user may work in through its group,
 * as an operator would share one: a git repository with one commit, group-writable, so git
 * as the agent user finds it owned by someone else ("dubious ownership" unless trusted).
 */
export async function sharedRepo(gid: number): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await realpath(await mkdtemp(join(tmpdir(), 'agent-project-')));
  const git = (...args: string[]) =>
    execa('git', args, {
      cwd: path,
      env: { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.com' },
    });
  await git('init', '-q', '--shared=group', '-b', 'main');
  await writeFile(join(path, 'README.md'), 'a project\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'first');
  await execa('chgrp', ['-R', String(gid), path]);
  await execa('chmod', ['-R', 'g+rwX', path]);
  await execa('find', [path, '-type', 'd', '-exec', 'chmod', 'g+s', '{}', '+']);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Hands a test's folder (the fake CLI's log, say) to the agent user, who writes there. */
export async function giveToAgent(path: string, ids: { uid: number; gid: number }): Promise<void> {
  await chown(path, ids.uid, ids.gid);
  await chmod(path, 0o700);
}
