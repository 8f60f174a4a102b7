import { chmodSync, chownSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { lchown } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { runAs } from '../sandbox/helper-env.ts';
import { agentSpace, agentTemp, agentUser, type AgentUser } from './agent-user.ts';
import { scratchFolder } from './scratch.ts';

/*
 * Where what an agent's CLI reads (its MCP config, a turn's prompt and agents files) and its
 * runs' worktrees live when agents run as their own user: outside the bridge's data directory,
 * which that user cannot enter. The folder itself is the bridge's (0711: the agent reaches
 * names it is given, lists nothing, and can plant nothing the bridge would then write through);
 * each file in it is handed to the agent user, 0600. Worktrees are the agent user's own, made
 * by git as that user.
 */

/** Makes the agent space, its worktrees folder and its temp directory at start; a place someone else made first is refused. */
export function prepareAgentSpace(user: AgentUser): void {
  const space = agentSpace(user);
  ownedFolder(space, process.getuid?.() ?? 0, 0o711, user);
  ownedFolder(agentWorktrees(user), user.uid, 0o700, user);
  ownedFolder(agentTemp(user), user.uid, 0o700, user);
  try {
    runAs(user, 'test', ['-w', agentTemp(user)]);
  } catch {
    throw new ConfigError(`BRIDGE_AGENT_USER: ${user.name} cannot reach ${space}: open the folders above it to that user (chmod o+x)`);
  }
}

/** The parent of runs' worktrees when agents run as their own user. */
export function agentWorktrees(user: AgentUser): string {
  return join(agentSpace(user), 'worktrees');
}

function ownedFolder(path: string, uid: number, mode: number, user: AgentUser): void {
  try {
    mkdirSync(path, { mode: 0o700 });
    chownSync(path, uid, uid === user.uid ? user.gid : (process.getgid?.() ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const info = lstatSync(path);
  if (!info.isDirectory() || info.uid !== uid)
    throw new ConfigError(`BRIDGE_AGENT_USER: ${path} exists but is not a directory owned by uid ${uid}; remove it so the bridge can make it afresh`);
  chmodSync(path, mode);
}

/**
 * A folder for files a CLI reads, named like other scratch (removed after a crash by the
 * next start): in the agent space when agents run as their own user, else an owner-only
 * folder in the temp directory, outside every project root.
 */
export function agentReadableFolder(what: string): string {
  const user = agentUser();
  if (!user) return scratchFolder(what);
  const folder = scratchFolder(what, agentSpace(user));
  chmodSync(folder, 0o711);
  return folder;
}

/**
 * Writes a file for the agent's CLI, 0600, never through a file already there (a planted
 * link), and hands it to the agent user when there is one: the agent reads its own run's file,
 * and nobody else's user does.
 */
export function writeAgentFile(path: string, contents: string): void {
  writeFileSync(path, contents, { mode: 0o600, flag: 'wx' });
  const user = agentUser();
  if (user) chownSync(path, user.uid, user.gid);
}

/**
 * Gives a file the bridge made for the agent (a file someone sent to the chat) to the agent user,
 * when there is one: never what a link put in its place leads to (lchown).
 */
export async function handToAgent(path: string): Promise<void> {
  const user = agentUser();
  if (user) await lchown(path, user.uid, user.gid);
}

/** The mode of folders the bridge makes in a project: passable by the agent user, when there is one, which lists nothing. */
export function projectFolderMode(): number {
  return agentUser() ? 0o711 : 0o700;
}
