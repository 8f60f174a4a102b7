import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree, findRepoRoot, WorktreeError } from '../../src/engine/worktrees/index.ts';
import { branches, commitFiles, emptyRepo, gitIn, repoWith, tempDir, worktreePaths } from './git-fixture.ts';

describe('createWorktree', () => {
  it('refuses a directory outside any git repository, saying so', async () => {
    const dir = await tempDir();
    const attempt = createWorktree({ dir, worktreesDir: join(dir, 'wt'), runId: 'abc123' });
    await expect(attempt).rejects.toThrow(WorktreeError);
    await expect(attempt).rejects.toThrow(`${dir} is not inside a git repository: --worktree needs one`);
    expect(await findRepoRoot(dir)).toBeUndefined();
    expect(existsSync(join(dir, 'wt', 'abc123'))).toBe(false);
  });

  it('refuses a directory that does not exist', async () => {
    const dir = join(await tempDir(), 'missing');
    await expect(createWorktree({ dir, worktreesDir: dir, runId: 'abc123' })).rejects.toThrow(`${dir} is not a directory`);
    expect(await findRepoRoot(dir)).toBeUndefined();
  });

  it('refuses a repository with no commits, leaving no branch behind', async () => {
    const { repo, worktreesDir } = await emptyRepo();
    const attempt = createWorktree({ dir: repo, worktreesDir, runId: 'abc123' });
    await expect(attempt).rejects.toThrow(WorktreeError);
    await expect(attempt).rejects.toThrow(`${repo} has no commits yet`);
    expect(await branches(repo)).toEqual([]);
    expect(await worktreePaths(repo)).toEqual([repo]);
  });

  it("runs none of the repository's hooks: an agent may have written them from its worktree", async () => {
    const { repo, worktreesDir } = await repoWith();
    const marks = join(repo, '..', 'marks');
    await mkdir(marks);
    for (const hook of ['post-checkout', 'reference-transaction']) {
      await writeFile(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch "${marks}/${hook}"\n`);
      await chmod(join(repo, '.git', 'hooks', hook), 0o755);
    }
    await createWorktree({ dir: repo, worktreesDir, runId: 'hooked' });
    expect(existsSync(join(marks, 'post-checkout')) || existsSync(join(marks, 'reference-transaction'))).toBe(false);
    // git by hand still runs them: they are there, and would have run.
    await gitIn(repo, 'branch', 'by-hand');
    expect(existsSync(join(marks, 'reference-transaction'))).toBe(true);
  });

  it('checks out HEAD on a new branch in <worktreesDir>/<runId>', async () => {
    const { repo, worktreesDir } = await repoWith({ 'a.txt': 'one\n' });
    const head = await gitIn(repo, 'rev-parse', 'HEAD');
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'r1', label: 'Fix the login bug' });

    expect(wt).toEqual({
      repoRoot: repo,
      path: join(worktreesDir, 'r1'),
      workdir: join(worktreesDir, 'r1'),
      branch: 'bridge/fix-the-login-bug-r1',
      baseCommit: head,
      baseBranch: 'main',
    });
    expect(await readFile(join(wt.path, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await gitIn(wt.path, 'symbolic-ref', '--short', 'HEAD')).toBe(wt.branch);
    expect(await gitIn(wt.path, 'rev-parse', 'HEAD')).toBe(head);
    expect(await worktreePaths(repo)).toEqual([repo, wt.path]);
    // The shared checkout is untouched.
    expect(await gitIn(repo, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
  });

  it('starts the run in the same subdirectory of the worktree', async () => {
    const { repo, worktreesDir } = await repoWith({ 'packages/app/index.ts': 'x\n', 'top.txt': 't\n' });
    const dir = join(repo, 'packages', 'app');
    expect(await findRepoRoot(dir)).toBe(repo);

    const wt = await createWorktree({ dir, worktreesDir, runId: 'sub1' });
    expect(wt.repoRoot).toBe(repo);
    expect(wt.path).toBe(join(worktreesDir, 'sub1'));
    expect(wt.workdir).toBe(join(wt.path, 'packages', 'app'));
    expect(await readFile(join(wt.workdir, 'index.ts'), 'utf8')).toBe('x\n');
  });

  it('creates a start directory that holds nothing tracked', async () => {
    const { repo, worktreesDir } = await repoWith();
    const dir = join(repo, 'scratch', 'new');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'untracked.txt'), 'u\n');

    const wt = await createWorktree({ dir, worktreesDir, runId: 'sub2' });
    expect(wt.workdir).toBe(join(wt.path, 'scratch', 'new'));
    expect(existsSync(wt.workdir)).toBe(true);
    expect(existsSync(join(wt.workdir, 'untracked.txt'))).toBe(false);
  });

  it('records no base branch on a detached HEAD', async () => {
    const { repo, worktreesDir } = await repoWith();
    const first = await gitIn(repo, 'rev-parse', 'HEAD');
    await commitFiles(repo, { 'b.txt': 'b\n' }, 'second');
    await gitIn(repo, 'checkout', '--quiet', '--detach', first);

    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'det' });
    expect(wt.baseCommit).toBe(first);
    expect(wt.baseBranch).toBeUndefined();
    expect('baseBranch' in wt).toBe(false);
    expect(existsSync(join(wt.path, 'b.txt'))).toBe(false);
  });

  it('makes a valid branch from any label', async () => {
    const { repo, worktreesDir } = await repoWith();
    const cases: [label: string | undefined, branch: string][] = [
      [undefined, 'bridge/run-w0'],
      ['Café: naïve résumé', 'bridge/cafe-naive-resume-w1'],
      ['修复 登录 ✨', 'bridge/run-w2'],
      ['a/b/../c//d', 'bridge/a-b-c-d-w3'],
      ['..', 'bridge/run-w4'],
      ['release.lock', 'bridge/release-lock-w5'],
      ['-rf @{u} ~^:?*[\\ HEAD', 'bridge/rf-u-head-w6'],
      ['   ', 'bridge/run-w7'],
      ['trailing.', 'bridge/trailing-w8'],
      ['x'.repeat(39) + ' yz', `bridge/${'x'.repeat(39)}-w9`],
    ];
    const created = await Promise.all(
      cases.map(([label], index) => createWorktree({ dir: repo, worktreesDir, runId: `w${index}`, ...(label === undefined ? {} : { label }) })),
    );
    expect(created.map((wt) => wt.branch)).toEqual(cases.map(([, branch]) => branch));
    for (const wt of created) await gitIn(repo, 'check-ref-format', '--branch', wt.branch);
    expect((await branches(repo)).sort()).toEqual(['main', ...cases.map(([, branch]) => branch)].sort());
  });

  it('refuses a run id that cannot be a directory name', async () => {
    const { repo, worktreesDir } = await repoWith();
    await expect(createWorktree({ dir: repo, worktreesDir, runId: '../escape' })).rejects.toThrow(WorktreeError);
    expect(await branches(repo)).toEqual(['main']);
  });

  it('refuses a run id whose branch exists, keeping that branch', async () => {
    const { repo, worktreesDir } = await repoWith();
    const first = await createWorktree({ dir: repo, worktreesDir, runId: 'dup' });
    await expect(createWorktree({ dir: repo, worktreesDir: join(worktreesDir, 'other'), runId: 'dup' })).rejects.toThrow(
      /could not create branch bridge\/run-dup: .*already exists/,
    );
    expect(await branches(repo)).toContain(first.branch);
    expect(await worktreePaths(repo)).toEqual([repo, first.path]);
  });

  it('deletes its new branch when the worktree cannot be made', async () => {
    const { repo, worktreesDir } = await repoWith();
    await mkdir(join(worktreesDir, 'taken'), { recursive: true });
    await writeFile(join(worktreesDir, 'taken', 'keep.txt'), 'mine\n');

    await expect(createWorktree({ dir: repo, worktreesDir, runId: 'taken' })).rejects.toThrow(/could not create a worktree at .*taken: .*already exists/);
    expect(await branches(repo)).toEqual(['main']);
    expect(await readFile(join(worktreesDir, 'taken', 'keep.txt'), 'utf8')).toBe('mine\n');
  });

  it('creates four worktrees at once in one repository', async () => {
    const { repo, worktreesDir } = await repoWith();
    const ids = ['c1', 'c2', 'c3', 'c4'];
    const created = await Promise.all(ids.map((runId) => createWorktree({ dir: repo, worktreesDir, runId, label: 'parallel' })));

    expect(created.map((wt) => wt.path)).toEqual(ids.map((id) => join(worktreesDir, id)));
    expect((await worktreePaths(repo)).sort()).toEqual([repo, ...created.map((wt) => wt.path)].sort());
    for (const wt of created) expect(await gitIn(wt.path, 'symbolic-ref', '--short', 'HEAD')).toBe(wt.branch);
  });

  it('waits out a lock held by another git process', async () => {
    const { repo, worktreesDir } = await repoWith();
    // What a concurrent git holds while it updates the same ref.
    const lock = join(repo, '.git', 'refs', 'heads', 'bridge', 'run-locked.lock');
    await mkdir(join(repo, '.git', 'refs', 'heads', 'bridge'), { recursive: true });
    await writeFile(lock, '');
    const released = new Promise((resolve) => setTimeout(resolve, 300)).then(() => rm(lock));

    const started = Date.now();
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'locked' });
    await released;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await gitIn(wt.path, 'symbolic-ref', '--short', 'HEAD')).toBe('bridge/run-locked');
  });
});
