import { exists, git, resolveCommit } from './git.ts';
import type { DiffCounts, Worktree, WorktreeSummary } from './types.ts';

/** One file of a branch's diff, from `git diff --numstat`. */
export interface DiffFile {
  path: string;
  /** Where a renamed or copied file came from. */
  from?: string;
  /** Lines added and removed; a binary file has neither. */
  insertions: number;
  deletions: number;
  binary: boolean;
}

/** What a run's branch changed against the commit it was made from: the text and its summary. */
export interface WorktreeDiff extends DiffCounts {
  branch: string;
  /** The commit the diff is taken from (where the branch left its base) and the branch's tip. */
  base: string;
  tip: string;
  /** The unified diff (`git diff`, a/ and b/ prefixes, 3 lines of context, renames found), cut at `maxBytes`. */
  diff: string;
  /** The diff was longer than `maxBytes` and is cut at a line's end. */
  truncated: boolean;
  files: DiffFile[];
  /** Commits on the branch since the base: how many, and the newest of them (hash and subject). */
  commitCount: number;
  commits: { sha: string; subject: string }[];
  /** Files changed in the worktree but not committed: not in the diff, and not in a merge. */
  uncommittedFiles: number;
}

export type DiffResult = ({ ok: true } & WorktreeDiff) | { ok: false; refusal: 'gone'; message: string };

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const LISTED_COMMITS = 50;
// What the person or the repository configured must not change the text a reader (or diff2html) gets.
const DIFF_ARGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/', '--find-renames'];

/**
 * The run's branch against the commit it was made from, as the committed work a merge would
 * bring: a plain function of the repository, for a chat's file and a web page alike. Its
 * uncommitted files are counted, not shown (a merge leaves them out too).
 */
export async function worktreeDiff(wt: Worktree, options: { maxBytes?: number } = {}): Promise<DiffResult> {
  const cwd = wt.repoRoot;
  const tip = await resolveCommit(`refs/heads/${wt.branch}`, cwd);
  if (!tip) return { ok: false, refusal: 'gone', message: `its branch ${wt.branch} no longer exists` };
  const base = await diffBase(wt, tip);
  const range = `${base}..${tip}`;
  const [text, numstat, count, log, uncommitted] = await Promise.all([
    git(['diff', ...DIFF_ARGS, '--unified=3', base, tip], { cwd }),
    git(['diff', ...DIFF_ARGS, '--numstat', '-z', base, tip], { cwd }),
    git(['rev-list', '--count', range], { cwd }),
    git(['log', '--no-show-signature', `--max-count=${LISTED_COMMITS}`, '--format=%H%x00%s%x00', range], { cwd }),
    uncommittedFiles(wt.path),
  ]);
  const files = parseNumstat(numstat);
  const { diff, truncated } = cut(text ? `${text}\n` : '', options.maxBytes ?? DEFAULT_MAX_BYTES);
  return {
    ok: true,
    branch: wt.branch,
    base,
    tip,
    diff,
    truncated,
    files,
    ...counted(files),
    commitCount: Number(count),
    commits: parseLog(log),
    uncommittedFiles: uncommitted.length,
  };
}

/**
 * Where the branch left the commit it was made from (the commit itself, unless the run rewrote
 * its history); if that commit is gone, where it leaves the checkout it came from.
 */
async function diffBase(wt: Worktree, tip: string): Promise<string> {
  const cwd = wt.repoRoot;
  const from = (await resolveCommit(wt.baseCommit, cwd)) ?? (await resolveCommit('HEAD', cwd));
  if (!from) return tip;
  return git(['merge-base', from, tip], { cwd }).catch(() => from);
}

/** How many files `from`..`to` changes, and its lines added and removed. */
export async function diffCounts(cwd: string, from: string, to: string): Promise<DiffCounts> {
  return counted(parseNumstat(await git(['diff', '--no-ext-diff', '--no-textconv', '--numstat', '-z', from, to], { cwd })));
}

function counted(files: DiffFile[]): DiffCounts {
  return {
    filesChanged: files.length,
    insertions: files.reduce((sum, file) => sum + file.insertions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
  };
}

/** Paths `git status` reports in the worktree (untracked files each on their own); none if it is gone. */
export async function uncommittedFiles(path: string): Promise<string[]> {
  return (await exists(path)) ? statusFiles(path, 'all') : [];
}

/** The paths `git status` reports in `cwd`, untracked ones as `untracked` says (`all`: each on its own; `no`: none). */
export async function statusFiles(cwd: string, untracked: 'all' | 'no'): Promise<string[]> {
  const entries = (await git(['status', '--porcelain=v1', '-z', `--untracked-files=${untracked}`], { cwd })).split('\0');
  const files: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (!entry) continue;
    files.push(entry.slice(3)); // "XY path"
    if (entry[0] === 'R' || entry[0] === 'C') i++; // a rename's source path follows as its own entry
  }
  return files;
}

/** `added<TAB>deleted<TAB>path<NUL>`, or for a rename `added<TAB>deleted<TAB><NUL>from<NUL>to<NUL>`; binary files count "-". */
export function parseNumstat(output: string): DiffFile[] {
  const fields = output.split('\0');
  const files: DiffFile[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (!field) continue;
    const [added = '', deleted = ''] = field.split('\t', 2);
    const path = field.slice(added.length + deleted.length + 2); // a path may hold tabs itself
    const binary = added === '-' && deleted === '-';
    const counts = { insertions: Number(added) || 0, deletions: Number(deleted) || 0, binary };
    if (path) files.push({ path, ...counts });
    else {
      const from = fields[++i] ?? '';
      const to = fields[++i] ?? '';
      files.push({ path: to, from, ...counts });
    }
  }
  return files;
}

function parseLog(output: string): { sha: string; subject: string }[] {
  const fields = output.split('\0').map((field) => field.replace(/^\n/, ''));
  const commits: { sha: string; subject: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]) commits.push({ sha: fields[i]!, subject: fields[i + 1]! });
  return commits;
}

/** The text within `maxBytes`, cut at the end of a line. */
function cut(text: string, maxBytes: number): { diff: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= maxBytes) return { diff: text, truncated: false };
  const head = Buffer.from(text).subarray(0, maxBytes).toString('utf8');
  const end = head.lastIndexOf('\n');
  return { diff: end >= 0 ? head.slice(0, end + 1) : '', truncated: true };
}

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
  return [` ${files.length} uncommitted file${files.length === 1 ? '' : 's'}: ${listed(files, NAMED_UNCOMMITTED)}`];
}

/** "a, b, c, d, e and 3 more". */
export function listed(files: string[], named = 5): string {
  const names = files.slice(0, named).join(', ');
  return files.length > named ? `${names} and ${files.length - named} more` : names;
}
