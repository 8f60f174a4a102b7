import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import { git, GitFailure, GitUnavailable } from './git.ts';
import { WorktreeError } from './worktree-error.ts';

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
  if (!(await isDirectory(absolute))) throw new WorktreeError(`${absolute} is not a directory`);
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

const isDirectory = (path: string): Promise<boolean> =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/**
 * Concurrent `git worktree add`s in one repository race: one can read another's half-written
 * metadata (`failed to read .git/worktrees/<id>/commondir`), so the bridge changes a
 * repository's list of worktrees one change at a time, keyed by its common git directory.
 * (Other processes' races are left to the retry in git().)
 */
export const byRepository = new KeyedSerializer();
