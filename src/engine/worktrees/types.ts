/** A run's private checkout: its own directory and branch, made from the HEAD the run started at. */
export interface Worktree {
  /** Top of the working tree the run was asked to work in (where later git commands run). */
  repoRoot: string;
  /** The worktree's own directory: `<worktreesDir>/<runId>`. */
  path: string;
  /** Where the run works: the same subdirectory of `path` that it was started in within `repoRoot`. */
  workdir: string;
  branch: string;
  /** The commit the branch started at. */
  baseCommit: string;
  /** The branch checked out when the worktree was made; absent on a detached HEAD. */
  baseBranch?: string;
}

export interface WorktreeSummary {
  /** Commits on the branch since baseCommit. */
  commits: number;
  /** The committed diff since baseCommit. */
  filesChanged: number;
  insertions: number;
  deletions: number;
  /** Modified, staged, deleted or untracked files left in the worktree. */
  uncommittedFiles: number;
  /** `git diff --stat` style text for a chat message, at most ~20 lines. */
  stat: string;
}
