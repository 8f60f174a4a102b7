import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import { agentUser } from '../process/agent-user.ts';
import { git, GitFailure, GitUnavailable } from './git.ts';

/** A failure worded for the person in the chat: what is wrong and, where it helps, what git said. */
export class WorktreeError extends Error {
  override name = 'WorktreeError';
}

export interface RepoLocation {
  /** Top of the working tree that contains the directory. */
  root: string;
  /** The directory relative to `root`: "" at the top, else "sub/dir/". */
  prefix: string;
  /** The repository's .git directory, shared by all its worktrees: one key per repository. */
  commonDir: string;
}

/** Where `dir` sits in its git working tree; a WorktreeError says why it sits in none. */
export async function locateRepo(dir: string): Promise<RepoLocation> {
  const absolute = resolve(dir);
  // Checked first: a missing cwd and a missing git binary both surface as the same spawn ENOENT.
  if (!(await stat(absolute).catch(() => undefined))?.isDirectory()) throw new WorktreeError(`${absolute} is not a directory`);
  let output: string;
  try {
    output = await git(['rev-parse', '--show-toplevel', '--git-common-dir', '--show-prefix'], { cwd: absolute });
  } catch (error) {
    if (error instanceof GitUnavailable) throw new WorktreeError('git is not installed (or not on PATH): --worktree needs it');
    if (error instanceof GitFailure) throw new WorktreeError(`${absolute} is not inside a git repository: --worktree needs one`);
    throw error;
  }
  const [root = '', commonDir = '', prefix = ''] = output.split('\n');
  // The common dir comes relative to `absolute` (".git", "../../.git") unless in a linked worktree.
  return { root, prefix, commonDir: await realpath(resolve(absolute, commonDir)) };
}

/** The top of the git working tree containing `dir`; undefined outside one, or when git is missing. */
export async function findRepoRoot(dir: string): Promise<string | undefined> {
  try {
    return (await locateRepo(dir)).root;
  } catch (error) {
    if (error instanceof WorktreeError) return undefined;
    throw error;
  }
}

/**
 * Concurrent `git worktree add`s in one repository race: one can read another's half-written
 * metadata (`failed to read .git/worktrees/<id>/commondir`), so the bridge changes a
 * repository's list of worktrees one change at a time, keyed by its common git directory.
 * (Other processes' races are left to the retry in git().)
 */
export const byRepository = new KeyedSerializer();

/** Config keys whose value is a program git runs while it checks files out or merges them, chosen by the repository's own .gitattributes. */
const PROGRAM_KEY = /^(filter\..+\.(clean|smudge|process)|merge\..+\.driver)$/i;

/**
 * Why git may not run in `cwd` while `during` (and what to do `instead`): the first config
 * setting in `cwd`'s repository that makes git run a program of the
 * repository's choosing during a checkout or a merge: a filter or a merge driver, set in its
 * own config (`.git/config`, `config.worktree`, any file they include), which an agent working
 * there can write. Undefined when there is none. A driver from the system config is the
 * machine's; one from the global config is the operator's, unless git runs as the agent user,
 * whose home an agent writes. Signing, hooks and fsmonitor are switched off for every command
 * (see git.ts); diffs never run textconv or an external diff.
 */
export async function repositoryProgram(cwd: string, during: string, instead: string): Promise<string | undefined> {
  const theirs = new Set(['local', 'worktree', ...(agentUser() ? ['global'] : [])]);
  const listed = await git(['config', '--list', '--show-scope', '--show-origin', '-z'], { cwd });
  const fields = listed.split('\0');
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope = '', origin = '', entry = ''] = [fields[i], fields[i + 1], fields[i + 2]];
    const key = entry.split('\n', 1)[0]!;
    const file = origin.replace(/^file:/, '');
    if (theirs.has(scope) && PROGRAM_KEY.test(key))
      return `the repository's git config sets ${key} (in ${file}), a program git would run while ${during}: the bridge runs no program a repository names. Remove it from ${file} or ${instead}`;
  }
  return undefined;
}
