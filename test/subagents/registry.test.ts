import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/create-app.ts';
import type { Settings } from '../../src/kernel/settings/bridge-manifest.ts';
import type { Subagents } from '../../src/work/subagents/subagents.ts';
import { openApp, spawnFrom } from '../support/app-world.ts';
import { alive, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

let world: FakeCliWorld;
let out: RecordingOutbound;
let app: App | undefined;
let subagents: Subagents;

beforeEach(async () => {
  world = await fakeCliWorld();
  out = new RecordingOutbound();
});
afterEach(async () => {
  await app?.shutdown();
  app = undefined;
  await world.cleanup();
});

async function open(limits: Partial<Settings['subagents']> = {}) {
  app = await openApp(world, out, { subagents: limits });
  subagents = app.subagents;
  return subagents;
}

const spawn = (task: string, chatId = -1, extra: Parameters<typeof spawnFrom>[4] = {}) => spawnFrom(app!, world, task, chatId, extra);

async function spawnOk(task: string, chatId = -1, extra: Parameters<typeof spawnFrom>[4] = {}) {
  const result = await spawn(task, chatId, extra);
  if (!result.ok) throw new Error(result.error);
  return result;
}

const ended = (runId: string) => expect.poll(() => subagents.registry.get(runId)?.endedAt, { timeout: 15_000 }).toBeTruthy();
const announced = (chatId: number, count: number) => expect.poll(() => out.textsTo(chatId).length, { timeout: 15_000 }).toBe(count);

describe('the subagent registry', () => {
  it('runs a task and announces its result once, with stats', async () => {
    await open();
    const { run, queuePosition } = await spawnOk('say:forty-two', -1, { label: 'Answer' });
    expect(queuePosition).toBe(0);
    expect(run).toMatchObject({ number: 1, status: 'running', label: 'Answer', cli: 'fake' });
    await ended(run.runId);
    await announced(-1, 1);
    const [text] = out.textsTo(-1);
    expect(text).toMatch(/^✅ #1 Answer · 0:0\d\n\nforty-two\n\nfake · 1 turn · 10 in \/ 5 out · \$0\.0010 · /);
    await expect
      .poll(() => subagents.registry.get(run.runId))
      .toMatchObject({ status: 'completed', result: 'forty-two', delivery: { chat: 'sent', sentParts: 1 } });
  });

  it('tells the run it is a subagent, and gives a reply as context', async () => {
    await open();
    const { run } = await spawnOk('summarise it', -1, { context: 'the text replied to' });
    await ended(run.runId);
    const [call] = await world.invocations();
    expect(call!.argv).toContain('--append-system-prompt');
    expect(call!.argv[call!.argv.indexOf('--append-system-prompt') + 1]).toMatch(/^You are a subagent/);
    expect(call!.prompt).toBe('summarise it\n\nContext: the message this request replied to:\n"""\nthe text replied to\n"""');
  });

  it('limits running runs per chat, queues the rest in order, refuses past the queue', async () => {
    await open({ maxConcurrent: 2, maxQueued: 2 });
    // a and b hold until the test lets them go: however slow the machine, they still run when c and d come.
    const a = await spawnOk('wait-for:go-a say:a');
    const b = await spawnOk('wait-for:go-b say:b');
    const c = await spawnOk('say:c');
    const d = await spawnOk('say:d');
    expect([a, b, c, d].map((r) => [r.run.status, r.queuePosition])).toEqual([
      ['running', 0],
      ['running', 0],
      ['queued', 1],
      ['queued', 2],
    ]);
    const refused = await spawn('say:e');
    expect(refused).toEqual({
      ok: false,
      refusal: 'limit',
      error: 'Limit reached: 2 running and 2 queued in this chat (at most 2 running, 2 queued). Wait for one to finish, or /subagents stop one.',
    });
    // another chat is not affected by this chat's limit
    expect((await spawnOk('say:other', -2)).run.status).toBe('running');
    await writeFile(join(world.dir, 'go-a'), '');
    await ended(c.run.runId);
    await writeFile(join(world.dir, 'go-b'), '');
    await ended(d.run.runId);
    const started = [c, d].map((r) => subagents.registry.get(r.run.runId)!.startedAt!);
    expect(started[0]).toBeLessThanOrEqual(started[1]!);
    // c started when the first of a and b ended; the other may still be running.
    const firstFreed = Math.min(...[a, b].flatMap((r) => subagents.registry.get(r.run.runId)!.endedAt ?? []));
    expect(started[0]).toBeGreaterThanOrEqual(firstFreed);
    await announced(-1, 4);
  });

  it('saves a run with room as running in its one write before its CLI starts, and one that must wait as queued, then running', async () => {
    await open({ maxConcurrent: 1 });
    const saved = new Map<string, string[]>();
    subagents.store.onSaved((run) => {
      const statuses = saved.get(run.runId) ?? [];
      if (statuses.at(-1) !== run.status) saved.set(run.runId, [...statuses, run.status]);
    });
    const first = await spawnOk('wait-for:go-first say:first');
    const second = await spawnOk('say:second');
    expect([first.run.status, second.run.status]).toEqual(['running', 'queued']);
    await writeFile(join(world.dir, 'go-first'), '');
    // Each status as it reached the disk (a record in memory is ahead of its write).
    await expect.poll(() => saved.get(second.run.runId), { timeout: 15_000 }).toEqual(['queued', 'running', 'completed']);
    expect(saved.get(first.run.runId)).toEqual(['running', 'completed']);
  });

  it('gives back the slot of a run whose first write failed, which waits as queued', async () => {
    await open({ maxConcurrent: 1 });
    // The store's temporary file cannot be cleared: every write fails until it goes.
    const blocker = join(world.dir, '.subagents.json.tmp');
    await mkdir(blocker);
    await expect(spawn('say:unsaved')).rejects.toThrow();
    expect(subagents.registry.runningTotal()).toBe(0);
    const [unsaved] = subagents.registry.forChat('telegram:-1');
    expect(unsaved).toMatchObject({ status: 'queued' });
    expect(unsaved!.startedAt).toBeUndefined();
    await rm(blocker, { recursive: true });
    const next = await spawnOk('say:saved');
    expect(next.run.status).toBe('queued');
    await ended(next.run.runId);
    expect(subagents.registry.get(unsaved!.runId)).toMatchObject({ status: 'completed' });
  });

  it('keeps a global cap across chats', async () => {
    await open({ globalMaxConcurrent: 2 });
    const runs = [];
    for (const chat of [-1, -2, -3]) runs.push(await spawnOk('wait-for:go say:held', chat));
    expect(runs.map((r) => r.run.status)).toEqual(['running', 'running', 'queued']);
    expect(subagents.registry.runningTotal()).toBe(2);
    await writeFile(join(world.dir, 'go'), '');
    await ended(runs[2]!.run.runId);
  });

  it('stops a queued run without starting it, and a running one with its processes', async () => {
    await open({ maxConcurrent: 1 });
    const running = await spawnOk('grandchild hang');
    const queued = await spawnOk('say:never');
    expect(await subagents.registry.stop(queued.run.runId, 'Ada')).toBe(true);
    expect(subagents.registry.get(queued.run.runId)).toMatchObject({ status: 'stopped', error: 'stopped by Ada before it started' });
    await expect.poll(async () => (await world.invocations()).length).toBe(1);
    const [cli] = await world.invocations();
    expect(await subagents.registry.stop(running.run.runId, 'Ada')).toBe(true);
    expect(subagents.registry.get(running.run.runId)).toMatchObject({ status: 'stopped', error: 'stopped by Ada' });
    expect(alive(cli!.pid)).toBe(false);
    expect(await subagents.registry.stop(running.run.runId, 'Ada')).toBe(false);
    await announced(-1, 2);
    expect(out.textsTo(-1).every((t) => t.startsWith('❌'))).toBe(true);
    expect((await world.invocations()).map((c) => c.prompt)).toEqual(['grandchild hang']);
  });

  it('stopAll stops only this chat', async () => {
    await open();
    const mine = await Promise.all(['hang', 'hang'].map((t) => spawnOk(t, -1)));
    const theirs = await spawnOk('sleep:0.3 say:theirs', -2);
    expect(await subagents.registry.stopAll('telegram:-1', 'Ada')).toBe(2);
    for (const r of mine) expect(subagents.registry.get(r.run.runId)!.status).toBe('stopped');
    await ended(theirs.run.runId);
    expect(subagents.registry.get(theirs.run.runId)!.status).toBe('completed');
  });

  it('times a run out: SIGTERM, grace, SIGKILL, and says after how long', async () => {
    await open();
    const { run } = await spawnOk('ignore-term hang', -1, { timeoutSeconds: 1 });
    await ended(run.runId);
    expect(subagents.registry.get(run.runId)).toMatchObject({ status: 'timed_out', error: 'timed out after 1 s' });
    await announced(-1, 1);
    expect(out.textsTo(-1)[0]).toMatch(/^❌ #1 Subagent #1 · 0:0\d\n\n\*?Timed out:?\*? timed out after 1 s/);
  });

  it('reports a crash and survives garbage output', async () => {
    await open();
    const crash = await spawnOk('crash:9');
    const garbage = await spawnOk('garbage say:fine');
    await Promise.all([ended(crash.run.runId), ended(garbage.run.runId)]);
    expect(subagents.registry.get(crash.run.runId)).toMatchObject({
      status: 'failed',
      error: 'fake exited with code 9: fatal: the fake agent crashed on purpose',
    });
    expect(subagents.registry.get(garbage.run.runId)).toMatchObject({ status: 'completed', result: 'fine' });
  });

  it('refuses an unknown CLI, an empty task and a model the CLI cannot take', async () => {
    await open();
    expect(await spawn('x', -1, { cli: 'cobol' })).toEqual({ ok: false, error: 'Unknown CLI "cobol". Available: fake.' });
    expect(await spawn('   ')).toEqual({ ok: false, error: 'The task is empty.' });
    expect(await world.invocations()).toEqual([]);
  });

  it("takes a task that starts with dashes, or is larger than the kernel's limit for one argument, as text", async () => {
    await open();
    const dashed = await spawnOk('--say:dashes-are-text');
    const big = await spawnOk(`say:got-it-all ${'y'.repeat(200_000)}`);
    await Promise.all([ended(dashed.run.runId), ended(big.run.runId)]);
    expect(subagents.registry.get(dashed.run.runId)).toMatchObject({ status: 'completed' });
    expect(subagents.registry.get(big.run.runId)).toMatchObject({ status: 'completed', result: 'got-it-all' });
    const prompts = (await world.invocations()).map((call) => call.prompt);
    expect(prompts).toContain('--say:dashes-are-text');
    expect(prompts.some((prompt) => prompt.length > 200_000)).toBe(true);
  });

  it('refuses a timeout beyond a day, which a timer could not even hold', async () => {
    await open();
    expect(await spawn('x', -1, { timeoutSeconds: 2 ** 31 / 1000 })).toEqual({
      ok: false,
      error: 'A timeout is a whole number of seconds from 1 to 86400 (a day), got 2147483.648.',
    });
  });

  it('finds runs by #number, id and id prefix, within the chat only', async () => {
    await open();
    const { run } = await spawnOk('say:x');
    expect(subagents.registry.find('telegram:-1', '#1')?.runId).toBe(run.runId);
    expect(subagents.registry.find('telegram:-1', '1')?.runId).toBe(run.runId);
    expect(subagents.registry.find('telegram:-1', run.runId)?.runId).toBe(run.runId);
    expect(subagents.registry.find('telegram:-1', run.runId.slice(0, 6))?.runId).toBe(run.runId);
    expect(subagents.registry.find('telegram:-2', '#1')).toBeUndefined();
    await ended(run.runId);
  });

  it("writes each run's raw JSONL to its own bounded log", async () => {
    await open({ logMaxBytes: 4096 });
    const { run } = await spawnOk('tools:200');
    await ended(run.runId);
    const events = await subagents.events(subagents.registry.get(run.runId)!);
    expect(events.filter((e) => e.type === 'tool_start').length).toBeGreaterThan(5);
    const { statSync } = await import('node:fs');
    expect(statSync(run.logFile).size).toBeLessThanOrEqual(4096);
    expect(statSync(`${run.logFile}.1`).size).toBeLessThanOrEqual(4096);
  });

  it.each([
    ['both', 'pending', 'pending'],
    ['chat', 'pending', undefined],
    ['agent', 'skipped', 'pending'],
  ] as const)('announceTo %s: where the result of an agent-started run goes', async (announceTo, chat, agent) => {
    await open({ announceTo });
    const { run } = await spawnOk('say:x', -1, { requester: { kind: 'agent', chatKey: 'telegram:-1' } });
    expect(run.delivery.chat).toBe(chat);
    expect(run.delivery.agent).toBe(agent);
    const byUser = await spawnOk('say:y');
    expect(byUser.run.delivery).toEqual({ chat: 'pending', sentParts: 0, attempts: 0 });
    await ended(byUser.run.runId);
  });
});

describe('messages to a running run', () => {
  it('become its next turn in the same CLI session, for a CLI that reads none while it works, and the reply is its result', async () => {
    await open();
    const { run } = await spawnOk('sleep:3 say:first-answer');
    await expect.poll(() => subagents.registry.get(run.runId)?.childSessionId, { timeout: 15_000 }).toBeTruthy();
    const nextTurn = (waiting: number) => ({ ok: true, delivery: { via: 'next_turn', waiting }, messageId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await subagents.registry.send(run.runId, 'now check the tests', 'Ada')).toEqual(nextTurn(1));
    expect(await subagents.registry.send(run.runId, 'and the docs', 'Ada')).toEqual(nextTurn(2));
    await ended(run.runId);
    const record = subagents.registry.get(run.runId)!;
    expect(record).toMatchObject({ status: 'completed', result: 'echo: now check the tests\n\nand the docs (turn 2)' });
    const [first, second] = await world.invocations();
    expect(second!.resume).toBe(record.childSessionId);
    expect(first!.prompt).toContain('first-answer');
    await announced(-1, 1);
    expect(out.textsTo(-1)[0]).toContain('echo: now check the tests');
  });

  it('are refused once the run has ended, or before it started', async () => {
    await open({ maxConcurrent: 1 });
    const { run } = await spawnOk('say:done');
    await spawnOk('sleep:5', -1);
    const waiting = await spawnOk('say:later', -1);
    expect(await subagents.registry.send(waiting.run.runId, 'hi', 'Ada')).toMatchObject({
      ok: false,
      error: '#3 has not started yet: wait for it, or stop it and spawn again with the message.',
    });
    await ended(run.runId);
    expect(await subagents.registry.send(run.runId, 'hi', 'Ada')).toMatchObject({ ok: false, error: '#1 has ended (completed).' });
    await subagents.registry.stopAll('telegram:-1', 'Ada');
  });
});
