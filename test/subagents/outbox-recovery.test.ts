import { copyFileSync, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/kernel/settings/bridge-manifest.ts';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { RunStore } from '../../src/work/subagents/run-store.ts';
import { RUN_RESUME_PROMPT } from '../../src/work/subagents/system-prompt.ts';
import { RESUME_ATTEMPTS } from '../../src/kernel/policy/resume-attempts.ts';
import type { App } from '../../src/app/create-app.ts';
import { openApp, spawnFrom } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat } from '../support/chats.ts';
import { endedRun } from '../support/run-records.ts';
import { ChatUnreachableError } from '../../src/kernel/ports/chat.ts';

let world: FakeCliWorld;
let out: RecordingOutbound;
let app: App | undefined;

beforeEach(async () => {
  world = await fakeCliWorld();
  out = new RecordingOutbound();
});
afterEach(async () => {
  await app?.shutdown();
  app = undefined;
  await world.cleanup();
});

/** The bridge over what a test saved beforehand; `start()` recovers and announces. */
async function open(limits: Partial<Settings['subagents']> = {}, settings: Partial<Omit<Settings, 'subagents'>> = {}) {
  app = await openApp(world, out, { subagents: limits, settings, start: false });
  return app;
}

const record = (overrides: Partial<SubagentRunRecord>) => endedRun(world.dir, overrides);

class TelegramLikeError extends Error {
  constructor(
    readonly error_code: number,
    readonly description: string,
  ) {
    super(description);
  }
}

describe('the announcement outbox', () => {
  it('retries a failed announcement until it goes through, exactly once', async () => {
    const a = await open();
    out.failNext(new TelegramLikeError(502, 'Bad Gateway'), 2);
    const { run } = (await spawnFrom(a, world, 'say:hello')) as { run: SubagentRunRecord };
    await a.start();
    await expect.poll(() => a.subagents.registry.get(run.runId)?.delivery.chat, { timeout: 15_000 }).toBe('sent');
    expect(out.textsTo(-1)).toHaveLength(1);
    expect(a.subagents.registry.get(run.runId)!.delivery).toMatchObject({ attempts: 2, lastError: 'Bad Gateway', sentParts: 1 });
  });

  it('resumes a split announcement at the first part not yet sent', async () => {
    const store = await RunStore.open(world.dir);
    const long = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}. ${'word '.repeat(120)}`).join('\n\n');
    await store.save(record({ runId: 'multipart', result: long }));
    const a = await open();
    // part 1 goes, part 2 fails once, then the rest
    const send = out.send.bind(out);
    let calls = 0;
    out.send = async (...args) => {
      if (++calls === 2) throw new TelegramLikeError(500, 'Internal Server Error');
      return send(...args);
    };
    await a.start();
    await expect.poll(() => a.subagents.registry.get('multipart')?.delivery.chat, { timeout: 15_000 }).toBe('sent');
    const texts = out.textsTo(-1);
    const numbers = texts.flatMap((t) => [...t.matchAll(/Paragraph (\d+)\./g)].map((m) => Number(m[1])));
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(texts[0]).toMatch(/^✅ #1/);
  });

  it('gives up on a chat the bot can no longer write to, and says so in the record', async () => {
    const store = await RunStore.open(world.dir);
    await store.save(record({ runId: 'gone' }));
    const a = await open();
    // As every transport says it, whatever its app answered.
    out.failNext(new ChatUnreachableError('Forbidden: bot was kicked from the group chat'));
    await a.start();
    await expect.poll(() => a.subagents.registry.get('gone')?.delivery.chat).toBe('skipped');
    expect(a.subagents.registry.get('gone')!.delivery.lastError).toBe('Forbidden: bot was kicked from the group chat');
    expect(a.subagents.registry.get('gone')!.archiveAfter).toBeTruthy();
  });
});

describe('recovery after a restart', () => {
  it('takes up cut-short runs (in their session, or from the task if they acted in none) a few times at most, announces the rest interrupted, requeues and announces', async () => {
    const store = await RunStore.open(world.dir);
    const running = { status: 'running' as const, endedAt: undefined, result: undefined };
    await store.save(record({ runId: 'named', number: 1, ...running, childSessionId: 'session-1', toolCalled: true }));
    await store.save(record({ runId: 'unnamed-quiet', number: 2, ...running, task: 'say:from-the-task' }));
    await store.save(record({ runId: 'unnamed-acted', number: 3, ...running, toolCalled: true }));
    await store.save(record({ runId: 'resumed-before', number: 4, ...running, childSessionId: 'session-4', resumes: RESUME_ATTEMPTS }));
    await store.save(
      record({ runId: 'was-queued', number: 5, status: 'queued', startedAt: undefined, endedAt: undefined, task: 'say:from-the-queue', result: undefined }),
    );
    await store.save(record({ runId: 'unannounced', number: 6, result: 'finished while nobody listened' }));
    await store.save(record({ runId: 'announced', number: 7, delivery: { chat: 'sent', sentParts: 1, attempts: 0 } }));
    const a = await open();
    expect(await a.start()).toEqual({ interrupted: 2, requeued: 3 });
    await expect.poll(() => out.textsTo(-1).length, { timeout: 15_000 }).toBe(6);
    const texts = out.textsTo(-1).sort();
    expect(texts.some((t) => /^✅ #1 .*\n\n.*The bridge that runs you restarted while you were working on your task/.test(t))).toBe(true);
    expect(texts.some((t) => /^✅ #2 .*\n\nfrom-the-task/.test(t))).toBe(true);
    for (const n of [3, 4])
      expect(texts.some((t) => new RegExp(`^❌ #${n} .*\\n\\n\\*?Interrupted:?\\*? interrupted by a restart of the bridge`).test(t))).toBe(true);
    expect(texts.some((t) => /^✅ #5 .*\n\nfrom-the-queue/.test(t))).toBe(true);
    expect(texts.some((t) => /^✅ #6 .*\n\nfinished while nobody listened/.test(t))).toBe(true);
    // The named one was told why it goes on (its session, unknown to the fake CLI, started afresh: see subagent-recovery.test.ts for a real one).
    expect((await world.invocations()).filter((call) => call.prompt === RUN_RESUME_PROMPT)).toHaveLength(1);
    expect(a.subagents.registry.get('named')!.resumes).toBe(1);
  });

  it('takes up a run killed between its one write and its CLI start, from its task, and announces it once', async () => {
    const first = await open();
    await first.start();
    // What a SIGKILL leaves at the moment the run's first write lands, before anything starts its CLI.
    const killedAt = await mkdtemp(join(tmpdir(), 'killed-bridge-'));
    let cliStarted: boolean | undefined;
    first.subagents.store.onSaved((run) => {
      if (run.status !== 'running' || cliStarted !== undefined) return;
      copyFileSync(join(world.dir, 'subagents.json'), join(killedAt, 'subagents.json'));
      cliStarted = existsSync(world.env.FAKE_CLI_LOG!);
    });
    const { run } = (await spawnFrom(first, world, 'say:from-the-task')) as { run: SubagentRunRecord };
    expect(cliStarted).toBe(false);
    const left = JSON.parse(await readFile(join(killedAt, 'subagents.json'), 'utf8')) as { runs: Record<string, SubagentRunRecord> };
    expect(left.runs[run.runId]).toMatchObject({ status: 'running', startedAt: expect.any(Number) });
    expect(left.runs[run.runId]!.childSessionId).toBeUndefined();
    await first.shutdown();
    app = undefined;

    const afterKill = new RecordingOutbound();
    app = await openApp(world, afterKill, { dataDir: killedAt, start: false });
    expect(await app.start()).toEqual({ interrupted: 0, requeued: 1 });
    await expect.poll(() => afterKill.textsTo(-1), { timeout: 15_000 }).toEqual([expect.stringMatching(/^✅ #1 .*\n\nfrom-the-task/)]);
    expect(app.subagents.registry.get(run.runId)).toMatchObject({ status: 'completed', resumes: 1 });
    // Its files are still being written (the audit, a transcript) until it has shut down.
    await app.shutdown();
    app = undefined;
    await rm(killedAt, { recursive: true, force: true });
  });

  it.each([
    ['on', { status: 'running', stoppedBy: 'shutdown' }],
    ['off', { status: 'interrupted', error: 'interrupted: the bridge was shut down' }],
  ])(
    'a graceful shutdown (resume %s) leaves a running run to be taken up at the next start, or records it interrupted; queued ones stay queued',
    async (resume, left) => {
      app = await openApp(world, out, { subagents: { maxConcurrent: 1 }, env: { BRIDGE_RESUME_INTERRUPTED: resume } });
      const a = app;
      const running = await spawnFrom(a, world, 'hang');
      const queued = await spawnFrom(a, world, 'say:later');
      await expect.poll(async () => (await world.invocations()).length).toBe(1);
      await a.shutdown();
      app = undefined;
      const store = await RunStore.open(world.dir);
      expect(store.get((running as { run: SubagentRunRecord }).run.runId)).toMatchObject(left);
      expect(store.get((queued as { run: SubagentRunRecord }).run.runId)).toMatchObject({ status: 'queued' });
    },
  );
});

describe('the sweeper', () => {
  it('archives announced runs after retention and keeps the last N per chat', async () => {
    const store = await RunStore.open(world.dir);
    const old = Date.now() - 1000;
    for (let i = 1; i <= 5; i++)
      await store.save(record({ runId: `done${i}`, number: i, delivery: { chat: 'sent', sentParts: 1, attempts: 0 }, archiveAfter: old }));
    await store.save(record({ runId: 'fresh', number: 6, delivery: { chat: 'sent', sentParts: 1, attempts: 0 }, archiveAfter: Date.now() + 60_000 }));
    await store.save(
      record({ runId: 'other-chat', requesterKey: 'telegram:-2', chat: chat(-2), delivery: { chat: 'sent', sentParts: 1, attempts: 0 }, archiveAfter: old }),
    );
    const { subagents } = await open({ historyPerChat: 3 });
    expect(await subagents.sweep()).toEqual({ archived: 6, dropped: 2 });
    expect(subagents.store.all().map((r) => r.runId)).toEqual(['fresh']);
    expect((await subagents.store.archived()).map((r) => r.runId)).toEqual(['done3', 'done4', 'done5', 'other-chat']);
    // the live file holds only the live run
    const live = JSON.parse(await readFile(join(world.dir, 'subagents.json'), 'utf8'));
    expect(Object.keys(live.runs)).toEqual(['fresh']);
  });
});
