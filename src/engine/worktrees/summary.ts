import { git, resolveCommit } from './git.ts';
import type { Worktree, WorktreeSummary } from './types.ts';
import { diffCounts, uncommittedFiles } from './diff.ts';

// Narrow enough for a phone; ~20 lines in all so the summary fits one chat message.
const STAT_WIDTH = 60;
const MAX_FILE_LINES = 16;
const NAMED_UNCOMMITTED = 3;

/** What the run left: its commits and their diff since baseCommit, and what it did not commit. */
export async function summarizeWorktree(wt: Worktree): Promise<WorktreeSummary> {
  const cwd = wt.repoRoot;
  const tip = await resolveCommit(`refs/heads/${wt.branch}`, cwd);
  // A branch that is gone has nothing committed to tell.
  const [commits, counts, stat] = tip
    ? await Promise.all([
        git(['rev-list', '--count', `${wt.baseCommit}..${tip}`], { cwd }),
        diffCounts(cwd, wt.baseCommit, tip),
        git(['diff', '--no-ext-diff', '--no-textconv', `--stat=${STAT_WIDTH}`, wt.baseCommit, tip], { cwd }),
      ])
    : ['0', { filesChanged: 0, insertions: 0, deletions: 0 }, ''];
  const uncommitted = await uncommittedFiles(wt.path);
  const lines = [...shortenStat(stat), ...describeUncommitted(uncommitted)];
  return { commits: Number(commits), ...counts, uncommittedFiles: uncommitted.length, stat: lines.join('\n') || 'no changes' };
}

/** git's --stat lines, keeping the final "N files changed" line when files are cut. */
function shortenStat(stat: string): string[] {
  const lines = stat.split('\n').filter(Boolean);
  const total = lines.pop();
  if (total === undefined) return [];
  if (lines.length <= MAX_FILE_LINES) return [...lines, total];
  const shown = lines.slice(0, MAX_FILE_LINES - 1);
  return [...shown, ` … and ${lines.length - shown.length} more files`, total];
}

function describeUncommitted(files: string[]): string[] {
  if (files.length === 0) return [];
  const named = files.slice(0, NAMED_UNCOMMITTED).join(', ');
  const more = files.length > NAMED_UNCOMMITTED ? ` and ${files.length - NAMED_UNCOMMITTED} more` : '';
  return [` ${files.length} uncommitted file${files.length === 1 ? '' : 's'}: ${named}${more}`];
}
