import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countUnmergedCommits, createWorktree, removeWorktree, type Worktree } from '../../src/engine/worktrees/index.ts';
import { branches, commitFiles, gitIn, repoWith, worktreePaths } from './git-fixture.ts';

async function setUp(runId = 'abc'): Promise<{ repo: string; wt: Worktree }> {
  const { repo, worktreesDir } = await repoWith();
  const wt = await createWorktree({ dir: repo, worktreesDir, runId, label: 'x' });
  return { repo, wt };
}

async function expectGone(repo: string, wt: Worktree): Promise<void> {
  expect(existsSync(wt.path)).toBe(false);
  expect(await branches(repo)).not.toContain(wt.branch);
  expect(await worktreePaths(repo)).toEqual([repo]);
}

async function expectKept(repo: string, wt: Worktree): Promise<void> {
  expect(existsSync(wt.path)).toBe(true);
  expect(await branches(repo)).toContain(wt.branch);
  expect(await worktreePaths(repo)).toContain(wt.path);
}

describe('countUnmergedCommits', () => {
  it('is none until the run commits, and again once main merges the branch', async () => {
    const { repo, wt } = await setUp();
    expect(await countUnmergedCommits(wt)).toBe(0);

    await commitFiles(wt.path, { 'work.txt': 'w\n' }, 'work');
    await commitFiles(repo, { 'main.txt': 'm\n' }, 'main moves on');
    expect(await countUnmergedCommits(wt)).toBe(1);

    await gitIn(repo, 'merge', '--quiet', '--no-ff', '--no-edit', wt.branch);
    expect(await countUnmergedCommits(wt)).toBe(0);
  });

  it('is none when any other local branch holds the commits', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'work.txt': 'w\n' }, 'work');
    await gitIn(repo, 'branch', 'keeper', wt.branch);
    expect(await countUnmergedCommits(wt)).toBe(0);
  });

  it('does not count history from before the base when the base branch is deleted', async () => {
    const { repo, wt } = await setUp();
    await gitIn(repo, 'checkout', '--quiet', '--detach');
    await gitIn(repo, 'branch', '-D', 'main');
    expect(await countUnmergedCommits(wt)).toBe(0);
  });
});

describe('removeWorktree', () => {
  it('keeps a branch with unmerged commits, saying why', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'one.txt': '1\n' }, 'one');
    await commitFiles(wt.path, { 'two.txt': '2\n' }, 'two');

    expect(await removeWorktree(wt)).toEqual({ removed: false, reason: 'branch bridge/x-abc has 2 unmerged commits' });
    await expectKept(repo, wt);
  });

  it('removes a worktree with no commits, discarding uncommitted changes', async () => {
    const { repo, wt } = await setUp();
    await writeFile(join(wt.path, 'README.md'), 'edited\n');
    await writeFile(join(wt.path, 'untracked.txt'), 'u\n');

    expect(await removeWorktree(wt)).toEqual({ removed: true });
    await expectGone(repo, wt);
    expect(await gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it('removes a worktree whose commits were merged', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'work.txt': 'w\n' }, 'work');
    await gitIn(repo, 'merge', '--quiet', '--ff-only', wt.branch);

    expect(await removeWorktree(wt)).toEqual({ removed: true });
    await expectGone(repo, wt);
    expect(existsSync(join(repo, 'work.txt'))).toBe(true);
  });

  it('removes unmerged commits when forced', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'work.txt': 'w\n' }, 'work');

    expect(await removeWorktree(wt, { force: true })).toEqual({ removed: true });
    await expectGone(repo, wt);
  });

  it('keeps a locked worktree unless forced', async () => {
    const { repo, wt } = await setUp();
    await gitIn(repo, 'worktree', 'lock', '--reason', 'on a USB stick', wt.path);

    const kept = await removeWorktree(wt);
    expect(kept.removed).toBe(false);
    expect(kept.reason).toBe(`could not remove worktree ${wt.path}: cannot remove a locked working tree, lock reason: on a USB stick`);
    await expectKept(repo, wt);

    expect(await removeWorktree(wt, { force: true })).toEqual({ removed: true });
    await expectGone(repo, wt);
  });

  it('copes with a worktree directory deleted by hand', async () => {
    const { repo, wt } = await setUp();
    await rm(wt.path, { recursive: true });

    expect(await removeWorktree(wt)).toEqual({ removed: true });
    await expectGone(repo, wt);
  });

  it('still keeps unmerged commits when the directory was deleted by hand', async () => {
    const { repo, wt } = await setUp();
    await commitFiles(wt.path, { 'work.txt': 'w\n' }, 'work');
    await rm(wt.path, { recursive: true });

    expect(await removeWorktree(wt)).toEqual({ removed: false, reason: 'branch bridge/x-abc has 1 unmerged commit' });
    expect(await branches(repo)).toContain(wt.branch);
  });

  it('copes with a branch already deleted, and with being called twice', async () => {
    const { repo, wt } = await setUp();
    await gitIn(repo, 'worktree', 'remove', wt.path);
    await gitIn(repo, 'branch', '-D', wt.branch);

    expect(await removeWorktree(wt)).toEqual({ removed: true });
    expect(await removeWorktree(wt)).toEqual({ removed: true });
    await expectGone(repo, wt);
  });

  it('keeps the branch when it is checked out elsewhere', async () => {
    const { repo, wt } = await setUp();
    await gitIn(repo, 'worktree', 'remove', wt.path);
    await gitIn(repo, 'checkout', '--quiet', wt.branch);

    const result = await removeWorktree(wt);
    expect(result.removed).toBe(false);
    expect(result.reason).toMatch(/kept branch bridge\/x-abc: .*checked out/i);
    expect(await branches(repo)).toContain(wt.branch);
  });
});
