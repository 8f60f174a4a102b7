import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/kernel/audit/audit-log.ts';
import { announcementBody } from '../../src/work/presentation/announcement.ts';
import { reviewable } from '../../src/work/presentation/review.ts';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { RunReview, type Reviewer } from '../../src/work/subagents/run-review.ts';
import { RunStore } from '../../src/work/subagents/run-store.ts';
import { createWorktree } from '../../src/engine/worktrees/index.ts';
import { commitFiles, gitIn, repoWith, tempDir } from '../worktrees/git-fixture.ts';
import { endedRun } from '../support/run-records.ts';

const ADA: Reviewer = { transport: 'telegram', userId: '1', name: 'Ada', owner: false };
const OWNER: Reviewer = { transport: 'telegram', userId: '9', name: 'Olga', owner: true };

/** A review service over a store and audit log of their own, and an ended run of Ada's that worked in a worktree with one commit. */
async function world(options: { busy?: string; run?: Partial<SubagentRunRecord> } = {}) {
  const { repo, worktreesDir } = await repoWith();
  const dataDir = await tempDir();
  const store = await RunStore.open(dataDir);
  const audit = new AuditLog(dataDir);
  const worktree = await createWorktree({ dir: repo, worktreesDir, runId: 'run01', label: 'work' });
  await commitFiles(worktree.path, { 'feature.txt': 'f\n' }, 'feature');
  const run = endedRun(repo, {
    runId: 'run01',
    requester: { kind: 'user', userId: '1', name: 'Ada' },
    label: 'work',
    isolate: true,
    worktree,
    auditCounts: { spawn: 1 },
    logFile: join(dataDir, 'run01.jsonl'),
    delivery: { chat: 'sent', sentParts: 1, attempts: 0 },
    ...options.run,
  });
  await store.save(run);
  const review = new RunReview({ store, audit, checkoutBusy: () => options.busy });
  const auditLines = async () => {
    await audit.flush();
    return (await readFile(audit.file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { repo, store, review, run, auditLines, head: () => gitIn(repo, 'rev-parse', 'HEAD') };
}

describe('RunReview', () => {
  it("says a worker's run is on the worker's machine, and offers no review of it here", async () => {
    const { review, run, head } = await world({ run: { worker: 'gpu-box' } });
    const before = await head();
    for (const result of [await review.diff(run), await review.merge(run, OWNER), await review.discard(run, OWNER, { confirmedCommits: 1 })]) {
      expect(result).toMatchObject({
        ok: false,
        refusal: 'worker',
        message: expect.stringMatching(
          /^#1 work ran on the worker gpu-box: its worktree is on that machine, so it cannot be (diffed|merged|discarded) from here\.$/,
        ),
      });
    }
    expect(await head()).toBe(before);
    expect(existsSync(run.worktree!.path)).toBe(true);
    expect(reviewable(run)).toBe(false);
    expect(announcementBody(run)).toContain(`(worktree ${run.worktree!.path} on the worker gpu-box)`);
  });

  it('shows a running run’s diff so far, but neither merges nor discards it', async () => {
    const { review, run, repo } = await world({ run: { status: 'running', endedAt: undefined } });
    expect(await review.diff(run)).toMatchObject({ ok: true, filesChanged: 1 });
    expect(await review.merge(run, ADA)).toMatchObject({
      ok: false,
      refusal: 'running',
      message: '#1 work is still running: it can be merged once it ends (or is stopped).',
    });
    expect(await review.discard(run, ADA, { confirmedCommits: 1 })).toMatchObject({ ok: false, refusal: 'running' });
    expect(existsSync(join(repo, 'feature.txt'))).toBe(false);
    expect(existsSync(run.worktree!.path)).toBe(true);
  });

  it('waits while a turn or run works in the checkout, changing nothing', async () => {
    const { review, run, head, auditLines } = await world({ busy: "an agent's turn is working in /x" });
    const before = await head();
    expect(await review.merge(run, ADA)).toMatchObject({
      ok: false,
      refusal: 'busy',
      message: "#1 was not merged: an agent's turn is working in /x. Merge once it is done.",
    });
    expect(await head()).toBe(before);
    expect(await auditLines()).toEqual([expect.objectContaining({ event: 'merge', runId: 'run01', by: 'Ada (telegram:1)', decision: 'refused: busy' })]);
  });

  it('lets only an owner or an admin act on a run an agent started', async () => {
    const { review, run } = await world({ run: { requester: { kind: 'agent', chatKey: 'telegram:-1' } } });
    expect(await review.discard(run, ADA)).toMatchObject({ ok: false, refusal: 'not_allowed', message: 'Only an owner or an admin may discard #1 work.' });
    expect(await review.discard(run, { ...ADA, admin: true })).toMatchObject({ ok: false, refusal: 'unconfirmed', unmerged: 1 });
    expect(await review.discard(run, OWNER)).toMatchObject({ ok: false, refusal: 'unconfirmed', unmerged: 1 });
    expect(await review.discard(run, OWNER, { confirmedCommits: 1 })).toMatchObject({ ok: true, commits: 1 });
  });

  it('keeps a merged worktree that holds uncommitted files, and notes the merge and its audit count on the record', async () => {
    const { review, run, store, repo } = await world();
    await writeFile(join(run.worktree!.path, 'scratch.txt'), 'not committed\n');
    const merged = await review.merge(run, { ...ADA, via: '/merge' });
    expect(merged).toMatchObject({ ok: true, removed: false, kept: 'its worktree has 1 uncommitted file', merge: { into: 'main', commits: 1 } });
    expect(existsSync(join(repo, 'feature.txt'))).toBe(true);
    expect(existsSync(join(run.worktree!.path, 'scratch.txt'))).toBe(true);
    expect(store.get(run.runId)?.auditCounts).toEqual({ spawn: 1, merge: 1 });
    const saved = store.get(run.runId)!;
    expect(saved.worktree).toMatchObject({ merged: { into: 'main', commit: await gitIn(repo, 'rev-parse', 'HEAD'), by: 'Ada (telegram:1)' } });
    expect(saved.worktree!.removed).toBeUndefined();
    expect(reviewable(saved)).toBe(true);

    // What is left goes with a discard, which asks nothing now that its commits are merged.
    expect(await review.discard(saved, ADA)).toMatchObject({ ok: true, commits: 0, uncommittedFiles: 1 });
    expect(store.get(run.runId)!.worktree).toMatchObject({ removed: true, discarded: { by: 'Ada (telegram:1)' } });
    expect(await review.diff(store.get(run.runId)!)).toMatchObject({
      ok: false,
      refusal: 'removed',
      message: expect.stringContaining('(merged into main by Ada (telegram:1), then discarded by Ada (telegram:1))'),
    });
  });

  it('finds a run by # or id among the archived ones too, whose worktree may outlive its place in /subagents', async () => {
    const { review, run, store, repo } = await world();
    await store.archive([{ ...run, archiveAfter: Date.now() }]);
    expect(store.get(run.runId)).toBeUndefined();
    expect((await review.find('telegram:-1', '#1'))?.runId).toBe(run.runId);
    expect((await review.find('telegram:-1', 'run0'))?.runId).toBe(run.runId);
    expect(await review.find('telegram:-2', '1')).toBeUndefined();
    const archived = (await review.find('telegram:-1', '1'))!;
    expect(await review.merge(archived, ADA)).toMatchObject({ ok: true, removed: true });
    expect(existsSync(join(repo, 'feature.txt'))).toBe(true);
  });
});
