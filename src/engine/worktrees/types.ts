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

/** What a diff changes: how many files, and its lines added and removed. */
export interface DiffCounts {
  filesChanged: number;
  insertions: number;
  deletions: number;
}

/** What a run left: its commits and their diff since baseCommit (the counts), and what it did not commit. */
export interface WorktreeSummary extends DiffCounts {
  /** Commits on the branch since baseCommit. */
  commits: number;
  /** Modified, staged, deleted or untracked files left in the worktree. */
  uncommittedFiles: number;
  /** `git diff --stat` style text for a chat message, at most ~20 lines. */
  stat: string;
}
