// Git worktrees for `/spawn --worktree`: each run gets its own checkout and branch, so parallel runs
// never share a working directory. Everything goes through the real git CLI.
export { WorktreeError } from './worktree-error.ts';
export type { Worktree, WorktreeSummary } from './types.ts';
export { findRepoRoot } from './repo.ts';
export { createWorktree, type CreateWorktreeOptions } from './create.ts';
export { summarizeWorktree } from './summary.ts';
export { hasUnmergedCommits, countUnmergedCommits } from './unmerged.ts';
export { removeWorktree, type RemoveResult } from './remove.ts';
export { branchName, slugify } from './branch-name.ts';
