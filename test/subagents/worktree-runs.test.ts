import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/create-app.ts';
import type { Subagents } from '../../src/work/subagents/subagents.ts';
import { openApp, spawnFrom } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

let world: FakeCliWorld;
let repo: string;
let out: RecordingOutbound;
let app: App;
let subagents: Subagents;
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
};
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: gitEnv }).toString().trim();

beforeEach(async () => {
  world = await fakeCliWorld();
  repo = join(world.dir, 'repo');
  await mkdir(repo);
  git('init', '-q', '--initial-branch=main');
  await writeFile(join(repo, 'README.md'), '# project\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  out = new RecordingOutbound();
  app = await openApp(world, out, { dataDir: join(world.dir, 'data'), workdir: repo, env: gitEnv, subagents: { retentionMinutes: 0 } });
  subagents = app.subagents;
});
afterEach(async () => {
  await app.shutdown();
  await world.cleanup();
});

async function spawnIsolated(task: string, label: string) {
  const result = await spawnFrom(app, world, task, -1, { label, worktree: true, cwd: repo });
  if (!result.ok) throw new Error(result.error);
  await expect.poll(() => subagents.registry.get(result.run.runId)?.delivery.chat, { timeout: 15_000 }).toBe('sent');
  return subagents.registry.get(result.run.runId)!;
}

describe('runs in their own git worktree', () => {
  it('works on its own branch, and the announcement names the branch and what changed', async () => {
    const run = await spawnIsolated('write:feature.txt commit dirty:notes.txt say:done', 'Feature work');
    expect(run.worktree).toMatchObject({ branch: `bridge/feature-work-${run.runId}`, repoRoot: repo });
    const [call] = await world.invocations();
    expect(call!.cwd).toBe(run.worktree!.workdir);
    expect(existsSync(join(repo, 'feature.txt'))).toBe(false); // the shared checkout is untouched
    expect(run.worktree!.summary).toMatchObject({ commits: 1, filesChanged: 1, insertions: 1, deletions: 0, uncommittedFiles: 1 });
    const announcement = out.textsTo(-1).find((t) => t.startsWith('✅ #1 Feature work'))!;
    expect(announcement).toContain(`🌿 Branch bridge/feature-work-${run.runId}`);
    expect(announcement).toContain('1 commit, 1 file changed (+1 −0), 1 uncommitted');
  });

  it('after retention, removes a worktree with nothing to keep and keeps one with unmerged commits', async () => {
    const clean = await spawnIsolated('say:nothing', 'Clean');
    const busy = await spawnIsolated('write:work.txt commit', 'Busy');
    await subagents.sweep(Date.now() + 1000);
    const archived = await subagents.store.archived();
    const cleanArchived = archived.find((r) => r.runId === clean.runId)!;
    const busyArchived = archived.find((r) => r.runId === busy.runId)!;
    expect(cleanArchived.worktree).toMatchObject({ removed: true });
    expect(existsSync(clean.worktree!.path)).toBe(false);
    expect(git('branch', '--list', clean.worktree!.branch)).toBe('');
    expect(busyArchived.worktree).toMatchObject({ removed: false, kept: expect.stringContaining('1 unmerged commit') });
    expect(existsSync(busy.worktree!.path)).toBe(true);
  });

  it('is refused clearly outside a git repository', async () => {
    const result = await spawnFrom(app, world, 'x', -1, { worktree: true, cwd: world.dir });
    expect(result).toEqual({ ok: false, error: `${world.dir} is not inside a git repository: --worktree needs one.` });
  });
});
