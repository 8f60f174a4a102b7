import { git, resolveCommit } from './git.ts';
import type { Worktree } from './types.ts';

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

export async function hasUnmergedCommits(wt: Worktree): Promise<boolean> {
  return (await countUnmergedCommits(wt)) > 0;
}
