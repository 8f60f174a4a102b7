import { git, GitFailure } from './git.ts';
import { locateRepo } from './repo.ts';
import { serialized } from './serialize.ts';
import type { Worktree } from './types.ts';
import { countUnmergedCommits } from './unmerged.ts';
import { exists } from './exists.ts';

export interface RemoveResult {
  removed: boolean;
  /** Why something was kept, for the chat. */
  reason?: string;
}

/**
 * Removes a finished run's worktree and branch when that loses nothing: the branch has no commits
 * that other local branches lack. Uncommitted changes alone are not worth keeping (the run is over,
 * and it was told to commit). `force` removes regardless, locked worktrees included.
 * Assumes the run has ended: a commit landing between the check and the removal would be lost.
 */
export async function removeWorktree(wt: Worktree, options: { force?: boolean } = {}): Promise<RemoveResult> {
  const force = options.force ?? false;
  const unmerged = await countUnmergedCommits(wt);
  if (unmerged > 0 && !force) {
    return { removed: false, reason: `branch ${wt.branch} has ${unmerged} unmerged commit${unmerged === 1 ? '' : 's'}` };
  }
  // Queued behind this process's own worktree adds: a prune could take a half-made one for stale.
  const { commonDir } = await locateRepo(wt.repoRoot);
  const dirError = await serialized(commonDir, () => removeDirectory(wt, force));
  if (dirError) return { removed: false, reason: `could not remove worktree ${wt.path}: ${dirError}` };
  const branchError = await deleteBranch(wt);
  if (branchError) return { removed: false, reason: `removed worktree ${wt.path} but kept branch ${wt.branch}: ${branchError}` };
  return { removed: true };
}

/** Removes the worktree directory and git's record of it; returns git's complaint if it refuses. */
async function removeDirectory(wt: Worktree, force: boolean): Promise<string | undefined> {
  const cwd = wt.repoRoot;
  // One --force discards uncommitted changes; a second also overrides a lock.
  const args = ['worktree', 'remove', '--force', ...(force ? ['--force'] : []), '--', wt.path];
  try {
    await git(args, { cwd });
    return undefined;
  } catch (error) {
    if (!(error instanceof GitFailure)) throw error;
    if (await exists(wt.path)) return error.message;
    // Deleted by hand (or by an earlier removal): drop the stale record, which would otherwise
    // keep the branch "checked out" and undeletable.
    await git(['worktree', 'prune'], { cwd });
    return undefined;
  }
}

/** Deletes the branch (gone already is fine); returns git's complaint if it refuses. */
async function deleteBranch(wt: Worktree): Promise<string | undefined> {
  try {
    await git(['branch', '-D', '--', wt.branch], { cwd: wt.repoRoot });
    return undefined;
  } catch (error) {
    if (!(error instanceof GitFailure)) throw error;
    if (/not found/i.test(error.message)) return undefined;
    return error.message; // e.g. checked out in another worktree
  }
}
