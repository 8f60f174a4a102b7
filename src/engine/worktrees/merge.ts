import { isAbsolute, join } from 'node:path';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import { currentBranch, exists, git, GitFailure, gitOr, resolveCommit } from './git.ts';
import type { DiffCounts, Worktree } from './types.ts';
import { repositoryProgram } from './repo.ts';
import { diffCounts, listed, statusFiles } from './diff.ts';

/** Why a merge changed nothing: each worded for the person who asked, in `message`. */
export type MergeRefusal = 'gone' | 'detached' | 'nothing' | 'dirty' | 'conflict' | 'programs' | 'failed';

export type MergeResult =
  | ({
      ok: true;
      /** The branch merged into, in the checkout at `repoRoot`. */
      into: string;
      repoRoot: string;
      /** The merge commit, and where the branch was before it. */
      commit: string;
      previous: string;
      /** Commits it brought, and their diff. */
      commits: number;
    } & DiffCounts)
  | { ok: false; refusal: MergeRefusal; message: string; /** The files in question: conflicting, changed, in the way. */ files?: string[] };

/** Whoever commits when the checkout names nobody (a bridge on a fresh machine). */
const FALLBACK_IDENTITY = ['-c', 'user.name=jsonl-bridge', '-c', 'user.email=jsonl-bridge@localhost'];
/** One merge at a time into a checkout. */
const byCheckout = new KeyedSerializer();

/**
 * Merges the run's branch (a merge commit, `--no-ff`) into the branch checked out where the
 * worktree was made from. Refused, with nothing changed, when that checkout is on no branch, has
 * uncommitted changes to tracked files or an operation under way, already has every commit, sets
 * a filter or merge driver in its own config (a program of the repository's), or when the merge
 * would conflict: `git merge-tree` decides that first, without touching the
 * checkout. A merge that still fails is undone.
 */
export function mergeWorktree(wt: Worktree, options: { message?: string } = {}): Promise<MergeResult> {
  return byCheckout.run(wt.repoRoot, () => merge(wt, options.message ?? `Merge ${wt.branch}`));
}

async function merge(wt: Worktree, message: string): Promise<MergeResult> {
  const cwd = wt.repoRoot;
  const tip = await resolveCommit(`refs/heads/${wt.branch}`, cwd);
  if (!tip) return refused('gone', `its branch ${wt.branch} no longer exists`);
  const into = await currentBranch(cwd);
  const head = await resolveCommit('HEAD', cwd);
  if (!into || !head) return refused('detached', `no branch with a commit is checked out in ${cwd}: check one out to merge into`);
  const commits = Number(await git(['rev-list', '--count', `${head}..${tip}`], { cwd }));
  if (commits === 0) return refused('nothing', `${into} already has every commit of ${wt.branch}`);

  const program = await repositoryProgram(cwd, 'merging', 'merge by hand');
  if (program) return refused('programs', program);
  const underWay = await operationUnderWay(cwd);
  if (underWay) return refused('dirty', `${cwd} is in the middle of a ${underWay}: finish or abort it first`);
  // Tracked files changed, staged or unmerged (untracked ones are git's to weigh: only those in the way stop a merge).
  const changed = await statusFiles(cwd, 'no');
  if (changed.length) return refused('dirty', `${cwd} has uncommitted changes (${listed(changed)}): commit or stash them first`, changed);
  const conflicts = await conflictsOf(cwd, head, tip);
  if (conflicts.length) return refused('conflict', `${wt.branch} conflicts with ${into} in ${listed(conflicts)}`, conflicts);

  const failure = await gitOr(
    [...(await identity(cwd)), 'merge', '--no-ff', '--no-verify', '--no-gpg-sign', '--no-verify-signatures', '--no-progress', '--no-edit', '-m', message, tip],
    cwd,
    (refusal) => refusal,
  );
  if (failure instanceof GitFailure) {
    await undo(cwd, head);
    const inTheWay = untrackedInTheWay(failure.stderr);
    if (inTheWay.length) return refused('dirty', `untracked files in ${cwd} are in the way (${listed(inTheWay)}): move them first`, inTheWay);
    return refused('failed', `git merge failed: ${failure.message}`);
  }
  const commit = (await resolveCommit('HEAD', cwd))!;
  return { ok: true, into, repoRoot: cwd, commit, previous: head, commits, ...(await diffCounts(cwd, head, commit)) };
}

function refused(refusal: MergeRefusal, message: string, files?: string[]): MergeResult {
  return { ok: false, refusal, message, files };
}

/** A merge, rebase, cherry-pick, revert or bisect left half done in the checkout. */
async function operationUnderWay(cwd: string): Promise<string | undefined> {
  const markers: [string, string][] = [
    ['MERGE_HEAD', 'merge'],
    ['rebase-merge', 'rebase'],
    ['rebase-apply', 'rebase'],
    ['CHERRY_PICK_HEAD', 'cherry-pick'],
    ['REVERT_HEAD', 'revert'],
    ['BISECT_LOG', 'bisect'],
  ];
  for (const [marker, what] of markers) {
    const path = await git(['rev-parse', '--git-path', marker], { cwd });
    if (await exists(isAbsolute(path) ? path : join(cwd, path))) return what;
  }
  return undefined;
}

/** The files a merge of `tip` into `head` would leave in conflict, found in the object store alone. */
async function conflictsOf(cwd: string, head: string, tip: string): Promise<string[]> {
  const failure = await gitOr(['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', head, tip], cwd, (refusal) => refusal);
  if (!(failure instanceof GitFailure)) return [];
  // Exit 1: "<tree>\0<path>\0…": the merge is not clean.
  if (failure.exitCode !== 1) throw failure;
  const [, ...paths] = failure.stdout.split('\0');
  return [...new Set(paths.filter(Boolean))];
}

/** The checkout's own identity if it has one, else the bridge's: a merge commit needs a committer. */
async function identity(cwd: string): Promise<string[]> {
  for (const who of ['GIT_COMMITTER_IDENT', 'GIT_AUTHOR_IDENT']) if ((await gitOr(['var', who], cwd, () => undefined)) === undefined) return FALLBACK_IDENTITY;
  return [];
}

/** Leaves the checkout as it was at `head`: a merge git left half done is aborted, a staged one reset. */
async function undo(cwd: string, head: string): Promise<void> {
  if ((await operationUnderWay(cwd)) === 'merge') {
    await git(['merge', '--abort'], { cwd });
    return;
  }
  if ((await resolveCommit('HEAD', cwd)) !== head) return; // it committed after all
  // Changes staged by a merge that stopped short of its commit; the tree was clean before, so nothing else is touched.
  const staged = await git(['diff', '--cached', '--name-only'], { cwd });
  if (staged) await git(['reset', '--merge', head], { cwd });
}

/** The files git names after "untracked working tree files would be overwritten by merge". */
function untrackedInTheWay(stderr: string): string[] {
  if (!/untracked working tree files would be overwritten/.test(stderr)) return [];
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('\t'))
    .map((line) => line.trim());
}
