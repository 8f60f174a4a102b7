import { rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree, summarizeWorktree } from '../../src/engine/worktrees/index.ts';
import { commitFiles, gitIn, repoWith, writeFiles } from './git-fixture.ts';

describe('summarizeWorktree', () => {
  it('reports nothing for a fresh worktree', async () => {
    const { repo, worktreesDir } = await repoWith();
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'fresh' });
    expect(await summarizeWorktree(wt)).toEqual({
      commits: 0,
      filesChanged: 0,
      insertions: 0,
      deletions: 0,
      uncommittedFiles: 0,
      stat: 'no changes',
    });
  });

  it('counts commits and the committed diff since the base, and files left uncommitted', async () => {
    const { repo, worktreesDir } = await repoWith({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' });
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'sum' });
    // a.txt: one line replaced (+1 -1); b.txt: two lines added (+2).
    await commitFiles(wt.path, { 'a.txt': 'one\nTWO\nthree\n', 'b.txt': 'b\nc\nd\n' }, 'work');
    await writeFile(join(wt.path, 'notes.txt'), 'scratch\n');
    // Work on main after the worktree was made is not the run's.
    await commitFiles(repo, { 'main-only.txt': 'm\n' }, 'meanwhile on main');

    const summary = await summarizeWorktree(wt);
    expect(summary).toMatchObject({ commits: 1, filesChanged: 2, insertions: 3, deletions: 1, uncommittedFiles: 1 });
    const lines = summary.stat.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ a\.txt \| 2 \+-$/);
    expect(lines[1]).toMatch(/^ b\.txt \| 2 \+\+$/);
    expect(lines[2]).toBe(' 2 files changed, 3 insertions(+), 1 deletion(-)');
    expect(lines[3]).toBe(' 1 uncommitted file: notes.txt');
  });

  it('counts each kind of uncommitted change, and each file in an untracked directory', async () => {
    const { repo, worktreesDir } = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n' });
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'dirty' });
    await writeFile(join(wt.path, 'a.txt'), 'changed\n'); // modified
    await unlink(join(wt.path, 'b.txt')); // deleted
    await gitIn(wt.path, 'mv', 'c.txt', 'renamed.txt'); // staged rename: two paths, one file
    await writeFiles(wt.path, { 'new/x.txt': 'x\n', 'new/deep/y.txt': 'y\n' }); // untracked directory

    const summary = await summarizeWorktree(wt);
    expect(summary).toMatchObject({ commits: 0, filesChanged: 0, uncommittedFiles: 5 });
    expect(summary.stat).toMatch(/^ 5 uncommitted files: .+ and 2 more$/);
  });

  it('keeps the stat short when many files change', async () => {
    const { repo, worktreesDir } = await repoWith();
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'many' });
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, `${i}\n`]));
    await commitFiles(wt.path, files, 'thirty files');
    await commitFiles(wt.path, { 'f00.txt': 'again\n' }, 'and another commit');

    const summary = await summarizeWorktree(wt);
    expect(summary).toMatchObject({ commits: 2, filesChanged: 30, insertions: 30, deletions: 0 });
    const lines = summary.stat.split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines.at(-2)).toBe(' … and 15 more files');
    expect(lines.at(-1)).toBe(' 30 files changed, 30 insertions(+)');
  });

  it('still reports the commits when the worktree directory is gone', async () => {
    const { repo, worktreesDir } = await repoWith();
    const wt = await createWorktree({ dir: repo, worktreesDir, runId: 'gone' });
    await commitFiles(wt.path, { 'x.txt': 'x\n' }, 'work');
    await writeFile(join(wt.path, 'lost.txt'), 'lost\n');
    await rm(wt.path, { recursive: true });

    expect(await summarizeWorktree(wt)).toMatchObject({ commits: 1, filesChanged: 1, insertions: 1, uncommittedFiles: 0 });
  });
});
