import { exists, git, gitOr, resolveCommit } from './git.ts';
import { uncommittedFiles } from './diff.ts';
import { byRepository, locateRepo } from './repo.ts';
import type { Worktree } from './types.ts';

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
  const unmerged = force ? 0 : await countUnmergedCommits(wt);
  if (unmerged > 0) return { removed: false, reason: `branch ${wt.branch} has ${unmerged} unmerged commit${unmerged === 1 ? '' : 's'}` };
  // Queued behind this process's own worktree adds: a prune could take a half-made one for stale.
  const { commonDir } = await locateRepo(wt.repoRoot);
  const dirError = await byRepository.run(commonDir, () => removeDirectory(wt, force));
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
  const refusal = await gitOr(args, cwd, (failure) => ({ why: failure.message }));
  if (typeof refusal === 'string') return undefined;
  if (await exists(wt.path)) return refusal.why;
  // Deleted by hand (or by an earlier removal): drop the stale record, which would otherwise
  // keep the branch "checked out" and undeletable.
  await git(['worktree', 'prune'], { cwd });
  return undefined;
}

/** Deletes the branch (gone already is fine); returns git's complaint if it refuses. */
async function deleteBranch(wt: Worktree): Promise<string | undefined> {
  const refusal = await gitOr(['branch', '-D', '--', wt.branch], wt.repoRoot, (failure) => ({ why: failure.message }));
  // e.g. checked out in another worktree
  return typeof refusal === 'object' && !/not found/i.test(refusal.why) ? refusal.why : undefined;
}

/**
 * How many commits on the run's branch no other local branch contains (nor baseCommit: history the
 * run started from is not its work). A deleted branch has none. Squash or rebase merges still count
 * as unmerged: keeping a branch by mistake is cheap, losing one is not.
 */
export async function countUnmergedCommits(wt: Worktree): Promise<number> {
  const cwd = wt.repoRoot;
  const ref = `refs/heads/${wt.branch}`;
  const tip = await resolveCommit(ref, cwd);
  if (!tip) return 0;
  const others = (await git(['for-each-ref', '--format=%(refname)', 'refs/heads/'], { cwd })).split('\n').filter((name) => name && name !== ref);
  // The base may be gone if the branch was rewritten and gc ran; rev-list would reject it.
  const base = await resolveCommit(wt.baseCommit, cwd);
  const excluded = [...(base ? [base] : []), ...others].map((rev) => `^${rev}`);
  // Through stdin: a repository can have more branches than a command line holds.
  const input = [tip, ...excluded].join('\n') + '\n';
  return Number(await git(['rev-list', '--count', '--stdin'], { cwd, input }));
}

export type DiscardResult =
  | {
      ok: true;
      /** Commits no other branch held, and files never committed: gone with it. */
      commits: number;
      uncommittedFiles: number;
    }
  | {
      ok: false;
      /**
       * `unconfirmed`: its branch holds `unmerged` commits nothing else has, and discarding them was
       * not confirmed (or the count changed since); `uncommitted`: asked to lose nothing, and files
       * were left uncommitted.
       */
      refusal: 'unconfirmed' | 'uncommitted' | 'gone' | 'failed';
      message: string;
      unmerged?: number;
    };

/**
 * Removes the run's worktree and its branch. Commits no other local branch holds are lost with
 * them, so when there are any the caller must confirm their number (`confirmedCommits`, as a
 * first call reported it): a different number asks again. Uncommitted files go without asking,
 * unless `keepUncommitted` (a merged run's worktree is removed only when that loses nothing).
 */
export async function discardWorktree(wt: Worktree, options: { confirmedCommits?: number; keepUncommitted?: boolean } = {}): Promise<DiscardResult> {
  const tip = await resolveCommit(`refs/heads/${wt.branch}`, wt.repoRoot);
  if (!tip && !(await exists(wt.path))) return { ok: false, refusal: 'gone', message: `its worktree and branch ${wt.branch} are gone already` };
  const unmerged = await countUnmergedCommits(wt);
  if (unmerged > 0 && options.confirmedCommits !== unmerged) {
    const commits = `${unmerged} commit${unmerged === 1 ? '' : 's'}`;
    return { ok: false, refusal: 'unconfirmed', unmerged, message: `its branch ${wt.branch} holds ${commits} merged nowhere else` };
  }
  const uncommitted = (await uncommittedFiles(wt.path).catch(() => [])).length;
  if (uncommitted > 0 && options.keepUncommitted) {
    return { ok: false, refusal: 'uncommitted', message: `its worktree has ${uncommitted} uncommitted file${uncommitted === 1 ? '' : 's'}` };
  }
  const removal = await removeWorktree(wt, { force: true });
  if (!removal.removed) return { ok: false, refusal: 'failed', message: removal.reason ?? `could not remove ${wt.path}` };
  return { ok: true, commits: unmerged, uncommittedFiles: uncommitted };
}
