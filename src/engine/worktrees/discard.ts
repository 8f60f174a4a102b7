import { exists, resolveCommit } from './git.ts';
import { countUnmergedCommits, removeWorktree } from './remove.ts';
import { uncommittedFiles } from './diff.ts';
import type { Worktree } from './types.ts';

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
