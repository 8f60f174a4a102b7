// Git worktrees for `/spawn --worktree`: each run gets its own checkout and branch, so parallel runs
// never share a working directory; when it ends, its branch is reviewed: its diff, merged into the
// checkout it came from, or discarded. Everything goes through the real git CLI.
export type { Worktree, WorktreeSummary } from './types.ts';
export { findRepoRoot, WorktreeError } from './repo.ts';
export { createWorktree, type CreateWorktreeOptions } from './create.ts';
export { countUnmergedCommits, removeWorktree, type RemoveResult, discardWorktree, type DiscardResult } from './remove.ts';
export { summarizeWorktree, worktreeDiff, type WorktreeDiff, type DiffFile, type DiffResult } from './diff.ts';
export { mergeWorktree, type MergeResult, type MergeRefusal } from './merge.ts';
