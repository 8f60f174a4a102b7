import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';
import { statePixels } from '../support/picture-pixels.ts';

// Orchestrations end to end: a real bridge process, the fake Bot API and the fake CLI,
// whose prompts show what each step received.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -1100;
const { say, waitText } = ownerIn(() => world!, CHAT, 30_000);
const texts = () => world!.telegram.botMessages(CHAT).map((m) => m.text ?? m.caption ?? '');
const prompts = async () => (await world!.cli.invocations()).map((c) => c.prompt);
/** The chat's pictures (photos the bot sent): the graph of each orchestration. */
const photos = () => world!.telegram.botMessages(CHAT).filter((m) => m.media?.kind === 'photo');
/** A box of a state is a few thousand pixels of its colour: more than this, the picture shows one. */
const A_BOX = 2000;

const FAN = [
  'strategy: dag',
  'name: Release',
  'analyze: sleep:0.3 say:modules-a-b-c',
  'backend <- analyze: say:api-ready',
  'frontend <- analyze: say:ui-ready',
  'docs <- analyze: say:docs-ready',
  'integration <- backend, frontend, docs: say:all-wired',
].join('\n');

describe('/orchestrate', () => {
  it('refuses a plan with a cycle, naming it, and runs nothing', async () => {
    world = await startTelegramWorld();
    say('/orchestrate a <- c: one\nb <- a: two\nc <- b: three');
    const refusal = await waitText(/The plan was not started: cycle: a → b → c → a/);
    expect(refusal.text).toContain('Usage: /orchestrate');
    say('/orchestrate x <- nope: go');
    await waitText(/step "x" depends on "nope", which is not in the plan/);
    expect(await prompts()).toEqual([]);
  });

  it('fans out and in, hands each result downstream, and announces once with every outcome', async () => {
    world = await startTelegramWorld({ SUBAGENTS_MAX_CONCURRENT: '2' });
    const asked = say(`/orchestrate ${FAN}`);
    const done = await waitText(/^✅ Release \(orchestration #1\)/);
    expect(done.text).toMatch(/✓ analyze: completed\n.*✓ backend: completed\n.*✓ frontend: completed\n.*✓ docs: completed\n.*✓ integration: completed/s);
    expect(done.text).toContain('Result of integration:\n\nall-wired');
    const received = await prompts();
    expect(received[0]).toBe('sleep:0.3 say:modules-a-b-c');
    const backend = received.find((p) => p.endsWith('say:api-ready'))!;
    expect(backend).toContain('=== Step "analyze" ===\nmodules-a-b-c\n=== End of step "analyze" ===');
    const integration = received.find((p) => p.endsWith('say:all-wired'))!;
    for (const upstream of ['api-ready', 'ui-ready', 'docs-ready']) expect(integration).toContain(upstream);
    expect(integration).not.toContain('modules-a-b-c'); // only direct dependencies
    // one progress message, edited in place, and no per-step announcements
    const progress = world.telegram.botMessages(CHAT).find((m) => m.text?.startsWith('✅ #1 Release · dag'));
    expect(progress?.text).toContain('✓ integration');
    // It answers the command, as a run's start does.
    expect(progress?.replyToMessageId).toBe(asked.message_id);
    expect(texts().filter((t) => /^[✅❌] #\d+ /.test(t) && !t.includes('Release'))).toEqual([]);
    expect(texts().filter((t) => t.startsWith('✅ Release'))).toHaveLength(1);
    say('/orchestrations');
    await waitText(/#1 Release · ✅ completed · 5\/5 done/);
  });

  it('shows the graph as a picture beside the progress, replaced as steps end, the last one with every step done', async () => {
    world = await startTelegramWorld();
    say('/orchestrate name: Pictured\nfirst: sleep:1.5 say:one\nsecond <- first: sleep:1.5 say:two\nthird <- second: say:three');
    // The first picture comes right after the progress message: the first step running, the others waiting.
    const first = await world.telegram.waitFor(() => photos()[0], 20_000);
    const progress = world.telegram.botMessages(CHAT).find((m) => m.text?.includes('#1 Pictured · dag'))!;
    expect(first.messageId).toBeGreaterThan(progress.messageId);
    const sent = world.telegram.callsTo('sendPhoto')[0]!;
    expect(sent.files).toEqual([{ field: expect.any(String), filename: 'orchestration-1.png', size: expect.any(Number) }]);
    const firstPicture = first.history[0]?.media?.files.at(-1)?.bytes ?? first.media!.bytes;
    const before = statePixels(firstPicture);
    expect(before.running).toBeGreaterThan(A_BOX);
    expect(before.waiting).toBeGreaterThan(2 * A_BOX);
    expect(before.done).toBe(0);

    await waitText(/^✅ Pictured \(orchestration #1\)/);
    // The last picture shows every step done: it lands even though the end came between two updates.
    const last = await world.telegram.waitFor(() => photos().find((m) => m.caption === '#1 Pictured · 3/3 done · completed'), 10_000);
    const after = statePixels(last.media!.bytes);
    expect(after.done).toBeGreaterThan(3 * A_BOX);
    expect([after.running, after.waiting, after.failed]).toEqual([0, 0, 0]);
    expect(after.width).toBeGreaterThan(100);
    // One picture, edited in place as steps ended (each edit a new upload), never more often than the progress text.
    expect(photos()).toHaveLength(1);
    // (The message changes before the call that changed it is answered: wait for the answers.)
    await world.telegram.waitFor(() => world!.telegram.callsTo('editMessageMedia').every((call) => call.status !== undefined));
    const edits = world.telegram.callsTo('editMessageMedia').filter((call) => call.ok);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.every((call) => call.files.length === 1)).toBe(true);
    expect(edits.length).toBeLessThanOrEqual(world.telegram.callsTo('editMessageText').length + 1);
    const versions = last.history.filter((version) => version.kind === 'media');
    expect(versions).toHaveLength(edits.length);
    // Between the first and the last, a picture of the plan half way: a step done, the next running.
    const between = versions.slice(1).map((version) => statePixels(version.media!.files.at(-1)!.bytes));
    expect(between.some((shown) => shown.done > A_BOX && shown.running > A_BOX)).toBe(true);
  });

  it('fails the dependents of a failed step without running them', async () => {
    world = await startTelegramWorld();
    say('/orchestrate analyze: say:ok\nbackend <- analyze: crash:4\nfrontend <- analyze: say:ui\nintegration <- backend, frontend: say:never');
    const done = await waitText(/^❌ .*orchestration #1/);
    expect(done.text).toMatch(/✗ backend: failed \(claude exited with code 4/);
    expect(done.text).toContain('✓ frontend: completed');
    expect(done.text).toContain('✗ integration: failed (dependency "backend" failed)');
    expect((await prompts()).some((p) => p.includes('say:never'))).toBe(false);
  });

  it('stops a whole orchestration', async () => {
    world = await startTelegramWorld();
    say('/orchestrate first: hang\nsecond <- first: say:never');
    await expect.poll(async () => (await prompts()).length, { timeout: 15_000 }).toBe(1);
    say('/orchestrations stop 1');
    const done = await waitText(/^❌ .*orchestration #1.* stopped by Ada/);
    expect(done.text).toContain('⏹ first: stopped');
    expect(done.text).toContain('second: skipped');
  });

  it('survives a SIGKILL mid-plan: the interrupted step is resumed in its session, the rest follow, one announcement', async () => {
    world = await startTelegramWorld();
    say('/orchestrate first: say:one\nslow <- first: sleep-once:30 say:slow-done\nlast <- slow: say:end');
    await expect.poll(async () => (await prompts()).some((p) => p.includes('sleep-once:30')), { timeout: 20_000 }).toBe(true);
    // Both steps' CLIs have named their sessions (a step killed before that runs again from its task: outbox-recovery.test.ts).
    await expect
      .poll(async () => (await readFile(join(world!.dataDir, 'subagents.json'), 'utf8')).match(/"childSessionId"/g)?.length, { timeout: 20_000 })
      .toBe(2);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    const done = await waitText(/^✅ .*orchestration #1/);
    expect(done.text).toMatch(/✓ first: completed\n.*✓ slow: completed\n.*✓ last: completed/s);
    expect(done.text).toContain('Result of last:\n\nend');
    const received = await prompts();
    expect(received.filter((p) => p.endsWith('say:one'))).toHaveLength(1); // the finished step was not run again
    expect(received.filter((p) => p.includes('sleep-once:30'))).toHaveLength(1); // nor the resumed one from its task
    expect(received.find((p) => p.endsWith('say:end'))).toContain('The bridge that runs you restarted');
    await new Promise((r) => setTimeout(r, 500));
    expect(texts().filter((t) => /orchestration #1/.test(t) && /^[✅❌]/.test(t))).toHaveLength(1);
    // The picture sent before the kill is the one brought up to date after it.
    const last = await world.telegram.waitFor(() => photos().find((m) => m.caption?.endsWith('3/3 done · completed')), 10_000);
    expect(photos()).toHaveLength(1);
    expect(statePixels(last.media!.bytes).done).toBeGreaterThan(3 * A_BOX);
  }, 90_000);

  /** How many paragraphs the fake CLI's long:9000 writes (its longMarkdown: each about 300 characters, until 9,000). */
  const LONG_9000_PARAGRAPHS = 31;

  it('a bridge SIGKILLed while the second part of a long announcement is in flight sends the first part once, then the rest', async () => {
    world = await startTelegramWorld();
    // The announcement's second message (it starts with a paragraph, not the header) never gets an answer: the bridge dies waiting.
    const secondPart = /^(<b>)?Paragraph/;
    world.telegram.failNext('sendMessage', { hang: true }, { chatId: CHAT, text: secondPart });
    say('/orchestrate name: Long\nonly: long:9000');
    await world.telegram.waitFor(
      () => world!.telegram.callsTo('sendMessage').find((c) => c.status === undefined && secondPart.test(String(c.params.text))),
      30_000,
    );
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();

    const parts = () => texts().filter((t) => /Paragraph \d+/.test(t));
    const paragraphs = () => parts().flatMap((t) => [...t.matchAll(/Paragraph (\d+)\./g)].map((m) => Number(m[1])));
    // The whole answer, however slowly a loaded machine sends the rest: the last paragraph the fake CLI's long:9000 writes.
    await world.telegram.waitFor(() => paragraphs().includes(LONG_9000_PARAGRAPHS), 30_000);
    await new Promise((r) => setTimeout(r, 1000)); // anything doubled would show up by now
    expect(texts().filter((t) => t.startsWith('✅ Long (orchestration #1)'))).toHaveLength(1);
    // every paragraph once, in order: the first part was not sent again
    expect(paragraphs()).toEqual(Array.from({ length: LONG_9000_PARAGRAPHS }, (_, i) => i + 1));
    expect(parts().length).toBeGreaterThanOrEqual(3);
  });
});
