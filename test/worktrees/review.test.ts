import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree, discardWorktree, mergeWorktree, worktreeDiff, type Worktree } from '../../src/engine/worktrees/index.ts';
import { parseNumstat } from '../../src/engine/worktrees/diff.ts';
import { branches, commitFiles, gitIn, repoWith, worktreePaths } from './git-fixture.ts';

async function setUp(files?: Record<string, string>): Promise<{ repo: string; wt: Worktree }> {
  const { repo, worktreesDir } = await repoWith(files);
  const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'rev1', label: 'review me' });
  return { repo, wt };
}

/** What a merge refused must leave as it was: the commit checked out, and every file's state. */
async function checkoutState(repo: string): Promise<{ head: string; status: string }> {
  return { head: await gitIn(repo, 'rev-parse', 'HEAD'), status: await gitIn(repo, 'status', '--porcelain=v1', '--untracked-files=all') };
}

/** A hook that leaves a mark in `marks` when git runs it. */
async function plantHook(repo: string, name: string, marks: string): Promise<void> {
  const hooks = join(repo, '.git', 'hooks');
  await mkdir(hooks, { recursive: true });
  await writeFile(join(hooks, name), `#!/bin/sh\ntouch "${marks}/${name}"\n`);
  await chmod(join(hooks, name), 0o755);
}

describe('worktreeDiff', () => {
  it("is the branch's committed work against its base: the unified text, each file's counts, the commits", async () => {
    const { repo, wt } = await setUp({ 'a.txt': 'one\ntwo\n', 'old.txt': 'moved\nintact\n' });
    await gitIn(wt.path, 'mv', 'old.txt', 'new name.txt');
    await commitFiles(wt.path, { 'a.txt': 'one\nTWO\n', 'added.txt': 'x\ny\n' }, 'first change');
    await commitFiles(wt.path, { 'logo.bin': Buffer.from([0, 1, 2, 0]).toString('latin1') }, 'a binary');
    await writeFile(join(wt.path, 'scratch.txt'), 'not committed\n');
    await commitFiles(repo, { 'main-only.txt': 'later on main\n' }, 'main moves on');

    const diff = await worktreeDiff(wt);
    if (!diff.ok) throw new Error(diff.message);
    expect(diff.base).toBe(wt.baseCommit);
    expect(diff.tip).toBe(await gitIn(repo, 'rev-parse', wt.branch));
    expect(diff.diff).toBe(await gitIn(repo, 'diff', '-M', wt.baseCommit, wt.branch).then((text) => `${text}\n`));
    expect(diff.diff).toContain('diff --git a/a.txt b/a.txt\n');
    expect(diff.diff).toContain('-two\n+TWO\n');
    expect(diff.diff).toContain('rename from old.txt\nrename to new name.txt\n');
    expect(diff.diff).not.toContain('main-only'); // main's own work is not the run's
    expect(diff.diff).not.toContain('scratch');
    expect(diff.files).toEqual([
      { path: 'a.txt', insertions: 1, deletions: 1, binary: false },
      { path: 'added.txt', insertions: 2, deletions: 0, binary: false },
      { path: 'logo.bin', insertions: 0, deletions: 0, binary: true },
      { path: 'new name.txt', from: 'old.txt', insertions: 0, deletions: 0, binary: false },
    ]);
    expect(diff).toMatchObject({ filesChanged: 4, insertions: 3, deletions: 1, commitCount: 2, uncommittedFiles: 1, truncated: false });
    expect(diff.commits.map((c) => c.subject)).toEqual(['a binary', 'first change']);
    expect(diff.commits[0]!.sha).toBe(diff.tip);
  });

  it('cuts a diff past maxBytes at the end of a line, and says so', async () => {
    const { wt } = await setUp();
    await commitFiles(wt.path, { 'big.txt': 'line\n'.repeat(1000) }, 'big');
    const diff = await worktreeDiff(wt, { maxBytes: 500 });
    if (!diff.ok) throw new Error(diff.message);
    expect(diff.truncated).toBe(true);
    expect(Buffer.byteLength(diff.diff)).toBeLessThanOrEqual(500);
    expect(diff.diff.endsWith('+line\n')).toBe(true);
    expect(diff.insertions).toBe(1000); // the summary is of the whole diff
  });

  it('is empty for a branch with no commits, and refused once the branch is gone', async () => {
    const { repo, wt } = await setUp();
    expect(await worktreeDiff(wt)).toMatchObject({ ok: true, diff: '', files: [], commitCount: 0 });
    await gitIn(repo, 'worktree', 'remove', '--force', wt.path);
    await gitIn(repo, 'branch', '-D', wt.branch);
    expect(await worktreeDiff(wt)).toEqual({ ok: false, refusal: 'gone', message: 'its branch bridge/review-me-rev1 no longer exists' });
  });

  it('reads renames and paths with tabs from numstat -z', () => {
    expect(parseNumstat('1\t2\ta\tb.txt\0-\t-\t\0old\0new\0')).toEqual([
      { path: 'a\tb.txt', insertions: 1, deletions: 2, binary: false },
      { path: 'new', from: 'old', insertions: 0, deletions: 0, binary: true },
    ]);
  });
});

describe('mergeWorktree', () => {
  it('merges the branch into the branch checked out, as a merge commit, with no hook of the repository run', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'feature.txt': 'new\n' }, 'feature');
    await commitFiles(repo, { 'main.txt': 'main\n' }, 'main moves on');
    const marks = join(repo, '..', 'marks');
    await mkdir(marks);
    for (const hook of ['pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-merge', 'post-commit', 'reference-transaction']) {
      await plantHook(repo, hook, marks);
    }
    const before = await gitIn(repo, 'rev-parse', 'HEAD');

    const result = await mergeWorktree(wt, { message: 'Merge bridge/review-me-rev1 (run #1)' });
    expect(result).toMatchObject({ ok: true, into: 'main', repoRoot: repo, previous: before, commits: 1, filesChanged: 1, insertions: 1, deletions: 0 });
    expect(await readFile(join(repo, 'feature.txt'), 'utf8')).toBe('new\n');
    expect(await gitIn(repo, 'log', '-1', '--format=%P%n%s')).toBe(
      `${before} ${await gitIn(repo, 'rev-parse', wt.branch)}\nMerge bridge/review-me-rev1 (run #1)`,
    );
    expect(result.ok && result.commit).toBe(await gitIn(repo, 'rev-parse', 'HEAD'));
    expect(await gitIn(repo, 'status', '--porcelain')).toBe('');
    // The hooks are there and would run for a merge git is asked for by hand.
    expect(await readFile(join(repo, '.git', 'hooks', 'post-merge'), 'utf8')).toContain('touch');
    expect(await readdir(marks)).toEqual([]);
  });

  it('refuses a conflict, naming the files, and changes nothing', async () => {
    const { repo, wt } = await setUp({ 'README.md': 'hello\n', 'other.txt': 'o\n' });
    await commitFiles(wt.path, { 'README.md': 'from the run\n', 'other.txt': 'run\n', 'fine.txt': 'f\n' }, 'run');
    await commitFiles(repo, { 'README.md': 'from main\n', 'other.txt': 'main\n' }, 'main');
    await writeFile(join(repo, 'untracked.txt'), 'mine\n');
    const before = await checkoutState(repo);

    expect(await mergeWorktree(wt)).toEqual({
      ok: false,
      refusal: 'conflict',
      message: 'bridge/review-me-rev1 conflicts with main in README.md, other.txt',
      files: ['README.md', 'other.txt'],
    });
    expect(await checkoutState(repo)).toEqual(before);
    expect(existsSync(join(repo, 'fine.txt'))).toBe(false);
    expect(existsSync(join(repo, '.git', 'MERGE_HEAD'))).toBe(false);
  });

  it('refuses a checkout with uncommitted or staged changes, and changes nothing', async () => {
    const { repo, wt } = await setUp({ 'README.md': 'hello\n', 'b.txt': 'b\n' });
    await commitFiles(wt.path, { 'feature.txt': 'f\n' }, 'run');
    await writeFile(join(repo, 'README.md'), 'edited, not committed\n');
    await writeFile(join(repo, 'b.txt'), 'staged\n');
    await gitIn(repo, 'add', 'b.txt');
    const before = await checkoutState(repo);

    expect(await mergeWorktree(wt)).toEqual({
      ok: false,
      refusal: 'dirty',
      message: `${repo} has uncommitted changes (README.md, b.txt): commit or stash them first`,
      files: ['README.md', 'b.txt'],
    });
    expect(await checkoutState(repo)).toEqual(before);
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('edited, not committed\n');
  });

  it('refuses when untracked files are in the way, and changes nothing', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'feature.txt': 'from the run\n' }, 'run');
    await writeFile(join(repo, 'feature.txt'), 'mine, untracked\n');
    const before = await checkoutState(repo);

    expect(await mergeWorktree(wt)).toMatchObject({ ok: false, refusal: 'dirty', files: ['feature.txt'] });
    expect(await checkoutState(repo)).toEqual(before);
    expect(await readFile(join(repo, 'feature.txt'), 'utf8')).toBe('mine, untracked\n');
  });

  it('refuses a merge already under way, a detached checkout, and a branch with nothing new', async () => {
    const { repo, wt } = await setUp();
    expect(await mergeWorktree(wt)).toMatchObject({ ok: false, refusal: 'nothing', message: 'main already has every commit of bridge/review-me-rev1' });

    await commitFiles(wt.path, { 'feature.txt': 'f\n' }, 'run');
    await writeFile(join(repo, '.git', 'MERGE_HEAD'), `${await gitIn(repo, 'rev-parse', 'HEAD')}\n`);
    expect(await mergeWorktree(wt)).toMatchObject({ ok: false, refusal: 'dirty', message: `${repo} is in the middle of a merge: finish or abort it first` });
    await rm(join(repo, '.git', 'MERGE_HEAD'));

    await gitIn(repo, 'checkout', '--quiet', '--detach');
    expect(await mergeWorktree(wt)).toMatchObject({ ok: false, refusal: 'detached' });
  });

  it('commits as the bridge when the checkout names nobody', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'feature.txt': 'f\n' }, 'run');
    // git-fixture empties the global configuration; the test's identity comes from the environment of its own commands only.
    const result = await mergeWorktree(wt);
    expect(result.ok).toBe(true);
    expect(await gitIn(repo, 'log', '-1', '--format=%cn <%ce>')).toBe('jsonl-bridge <jsonl-bridge@localhost>');
  });

  it('uses the checkout’s own identity when it has one', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'feature.txt': 'f\n' }, 'run');
    await gitIn(repo, 'config', 'user.name', 'Owner');
    await gitIn(repo, 'config', 'user.email', 'owner@example.com');
    expect((await mergeWorktree(wt)).ok).toBe(true);
    expect(await gitIn(repo, 'log', '-1', '--format=%an <%ae>')).toBe('Owner <owner@example.com>');
  });
});

describe('discardWorktree', () => {
  it('asks for the number of unmerged commits, asks again if it changed, then removes worktree and branch', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'one.txt': '1\n' }, 'one');
    await commitFiles(wt.path, { 'two.txt': '2\n' }, 'two');
    await writeFile(join(wt.path, 'scratch.txt'), 's\n');
    const marks = join(repo, '..', 'marks');
    await mkdir(marks);
    await plantHook(repo, 'reference-transaction', marks);

    expect(await discardWorktree(wt)).toEqual({
      ok: false,
      refusal: 'unconfirmed',
      unmerged: 2,
      message: 'its branch bridge/review-me-rev1 holds 2 commits merged nowhere else',
    });
    expect(await discardWorktree(wt, { confirmedCommits: 1 })).toMatchObject({ ok: false, refusal: 'unconfirmed', unmerged: 2 });
    expect(await branches(repo)).toContain(wt.branch);
    expect(existsSync(wt.path)).toBe(true);

    expect(await discardWorktree(wt, { confirmedCommits: 2 })).toEqual({ ok: true, commits: 2, uncommittedFiles: 1 });
    expect(existsSync(wt.path)).toBe(false);
    expect(await branches(repo)).toEqual(['main']);
    expect(await worktreePaths(repo)).toEqual([repo]);
    expect(existsSync(join(marks, 'reference-transaction'))).toBe(false);

    expect(await discardWorktree(wt)).toMatchObject({ ok: false, refusal: 'gone' });
  });

  it('keeps a worktree with uncommitted files when asked to lose nothing', async () => {
    const { repo, wt } = await setUp();
    await writeFile(join(wt.path, 'scratch.txt'), 's\n');
    expect(await discardWorktree(wt, { keepUncommitted: true })).toEqual({
      ok: false,
      refusal: 'uncommitted',
      message: 'its worktree has 1 uncommitted file',
    });
    expect(existsSync(join(wt.path, 'scratch.txt'))).toBe(true);
    expect(await branches(repo)).toContain(wt.branch);
  });

  it('removes a merged branch without asking', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'one.txt': '1\n' }, 'one');
    await gitIn(repo, 'merge', '--quiet', '--no-edit', wt.branch);
    expect(await discardWorktree(wt)).toEqual({ ok: true, commits: 0, uncommittedFiles: 0 });
    expect(await branches(repo)).toEqual(['main']);
  });

  it('removes a branch whose worktree was deleted by hand', async () => {
    const { repo, wt } = await setUp();
    await rm(wt.path, { recursive: true, force: true });
    expect(await discardWorktree(wt)).toEqual({ ok: true, commits: 0, uncommittedFiles: 0 });
    expect(await branches(repo)).toEqual(['main']);
  });
});
