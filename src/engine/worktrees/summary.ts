import { access } from 'node:fs/promises';
import { git, resolveCommit } from './git.ts';
import type { Worktree, WorktreeSummary } from './types.ts';

// Narrow enough for a phone; ~20 lines in all so the summary fits one chat message.
const STAT_WIDTH = 60;
const MAX_FILE_LINES = 16;
const NAMED_UNCOMMITTED = 3;

/** What the run left: its commits and their diff since baseCommit, and what it did not commit. */
export async function summarizeWorktree(wt: Worktree): Promise<WorktreeSummary> {
  const committed = await committedChanges(wt);
  const uncommitted = await uncommittedFiles(wt.path);
  const stat = [...committed.stat, ...describeUncommitted(uncommitted)].join('\n') || 'no changes';
  return { ...committed.counts, uncommittedFiles: uncommitted.length, stat };
}

interface CommittedChanges {
  counts: Pick<WorktreeSummary, 'commits' | 'filesChanged' | 'insertions' | 'deletions'>;
  stat: string[];
}

async function committedChanges(wt: Worktree): Promise<CommittedChanges> {
  const cwd = wt.repoRoot;
  const tip = await resolveCommit(`refs/heads/${wt.branch}`, cwd);
  if (!tip) return { counts: { commits: 0, filesChanged: 0, insertions: 0, deletions: 0 }, stat: [] };
  const range = [wt.baseCommit, tip];
  const diff = ['diff', '--no-ext-diff', '--no-textconv'];
  const [commits, numstat, stat] = await Promise.all([
    git(['rev-list', '--count', `${wt.baseCommit}..${tip}`], { cwd }),
    git([...diff, '--numstat', ...range], { cwd }),
    git([...diff, `--stat=${STAT_WIDTH}`, ...range], { cwd }),
  ]);
  let filesChanged = 0;
  let insertions = 0;
  let deletions = 0;
  for (const line of numstat.split('\n').filter(Boolean)) {
    // "added<TAB>deleted<TAB>path"; binary files show "-" for both.
    const [added = '', deleted = ''] = line.split('\t');
    filesChanged++;
    insertions += Number(added) || 0;
    deletions += Number(deleted) || 0;
  }
  return { counts: { commits: Number(commits), filesChanged, insertions, deletions }, stat: shortenStat(stat) };
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

/** Paths `git status` reports in the worktree (untracked files each on their own); none if it is gone. */
export async function uncommittedFiles(path: string): Promise<string[]> {
  try {
    await access(path);
  } catch {
    return [];
  }
  const output = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: path });
  const entries = output.split('\0');
  const files: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (!entry) continue;
    files.push(entry.slice(3)); // "XY path"
    if (entry[0] === 'R' || entry[0] === 'C') i++; // a rename's source path follows as its own entry
  }
  return files;
}

function describeUncommitted(files: string[]): string[] {
  if (files.length === 0) return [];
  const named = files.slice(0, NAMED_UNCOMMITTED).join(', ');
  const more = files.length > NAMED_UNCOMMITTED ? ` and ${files.length - NAMED_UNCOMMITTED} more` : '';
  return [` ${files.length} uncommitted file${files.length === 1 ? '' : 's'}: ${named}${more}`];
}
