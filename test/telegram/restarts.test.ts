import { sessionsStored as storedSessions } from '../support/stored-sessions.ts';
import { watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESUME_ATTEMPTS } from '../../src/kernel/policy/resume-attempts.ts';
import { ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A restart loses no work: SIGTERM drains (running turns may finish, new messages are kept),
// and the next start resumes what was cut short in its session, once, and runs what waited.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -310;
const { say, waitText } = ownerIn(() => world!, CHAT, 30_000);
const texts = () => world!.telegram.botMessages(CHAT).map(shownText);
const invocations = () => world!.cli.invocations();
/** Waits until the fake CLI hangs in `count` turns (all its lines written). */
const hanging = (count = 1) => expect.poll(() => world!.cli.hanging().then((pids) => pids.length), { timeout: 20_000 }).toBeGreaterThanOrEqual(count);

const sessionsStored = (count: number) => storedSessions(world!.dataDir, count);

/** In queue mode: a turn at work (`first`, which hangs) and `second` waiting behind it. */
async function atWorkWithOneQueued(first: string, second: string): Promise<void> {
  say('/busy queue');
  await waitText(/^📨 Busy mode: queue/);
  say(first);
  await hanging();
  await sessionsStored(1);
  say(second);
  await waitText(/^⏳ Queued \(1st in line\)/);
}

/**
 * With the first chat's turn cut short and `second` (`wait-for:go two`) behind it: `cutInB` cuts
 * another chat's turn short too, a kill ends both, and the next start is left at work taking
 * them up (the other chat's resume notice held by a flood limit) once it has started `second`.
 */
async function restartTakingUp(cutInB: () => void): Promise<void> {
  cutInB();
  await hanging(2);
  await sessionsStored(2);
  world!.bridge.kill('SIGKILL');
  await world!.bridge.exited;
  world!.telegram.failNext('sendMessage', { code: 429, retryAfter: 5 }, { chatId: CHAT - 1 });
  await world!.restart('SIGKILL');
  await expect.poll(() => world!.cli.invocations().then((calls) => calls.some((call) => call.prompt === 'wait-for:go two')), { timeout: 20_000 }).toBe(true);
}

describe('a restart drains', () => {
  it('lets a running turn finish and answer before the bridge exits 0, its progress saying why it waits', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '30' });
    say('sleep:3 finish me');
    await waitText(/^⚙️ claude · working/);
    world.bridge.kill('SIGTERM');
    await waitText(/🔄 The bridge is restarting: this turn has 0:30 to finish, or it goes on after the restart\./);
    await waitText(/^echo: sleep:3 finish me/);
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    await world.restart();
    say('and now');
    await waitText(/^echo: and now/);
    // Nothing to resume, nothing to report: the turn was answered.
    expect(texts().filter((text) => /↻ Resuming|restarted before/.test(text))).toEqual([]);
    expect(await invocations()).toHaveLength(2);
  });

  it('keeps a message that comes during the drain, says so, and answers it after the restart', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '30' });
    say('sleep:3 first');
    await waitText(/^⚙️ claude · working/);
    world.bridge.kill('SIGTERM');
    await waitText(/🔄 The bridge is restarting: this turn has/);
    const kept = say('kept for later');
    const told = await waitText(/^🔄 The bridge is restarting: your message is kept, and runs as soon as it is back\.$/);
    expect(told.replyToMessageId).toBe(kept.message_id);
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    expect((await invocations()).map((call) => call.prompt)).toEqual(['sleep:3 first']);
    await world.restart();
    const answer = await waitText(/^echo: kept for later/);
    expect(answer.replyToMessageId).toBe(kept.message_id);
  });

  it('stops a turn still at work when the drain ends, and resumes it in its session with the tool call that was in flight', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '1' });
    const asked = say('hang-in-tool build it');
    await waitText(/make build/);
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    await world.restart();
    const notice = await waitText(/^↻ Resuming after the restart: “hang-in-tool build it”$/);
    expect(notice.replyToMessageId).toBe(asked.message_id);
    const answer = await waitText(/^echo: The bridge that runs you restarted/);
    expect(answer.text).toContain('The tool call in flight was: Bash make build');
    expect(answer.replyToMessageId).toBe(asked.message_id);
    const [first, resumed] = await invocations();
    expect(resumed!.resume).toBe(first!.session);
  });

  it('does not take up after the restart a turn someone stopped just before it, whose answer was still going out', async () => {
    world = await startTelegramWorld();
    say('hang-in-tool build it');
    await waitText(/make build/);
    // Telegram holds the chat's next edit for 3 s: the stopped turn's last progress edit waits, and its end is still under way at the signal.
    world.telegram.failNext('editMessageText', { code: 429, retryAfter: 3 }, { chatId: CHAT });
    say('/stop');
    await waitText(/^⏹ Stopped the turn/);
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    await world.restart();
    say('after');
    await waitText(/^echo: after/);
    expect(texts().filter((text) => text.startsWith('↻ Resuming'))).toEqual([]);
    expect((await invocations()).map((call) => call.prompt)).toEqual(['hang-in-tool build it', 'after']);
  });

  it('counts a signal forwarded twice (npm start) once: the drain goes on and ends with 0', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '30' });
    say('sleep:2 doubled');
    await waitText(/^⚙️ claude · working/);
    world.bridge.kill('SIGTERM');
    world.bridge.kill('SIGTERM');
    await waitText(/^echo: sleep:2 doubled/);
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
  });

  it('leaves at once on a second signal, and what was running resumes at the next start', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '60' });
    say('hang until the second signal');
    await hanging();
    world.bridge.kill('SIGTERM');
    const firstAt = Date.now();
    await waitText(/🔄 The bridge is restarting/);
    // A second signal is a new one only once the first's forwarded copy could no longer come.
    await expect.poll(() => Date.now() - firstAt, { interval: 100 }).toBeGreaterThan(1100);
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 130 });
    await world.restart();
    await waitText(/^↻ Resuming after the restart: “hang until the second signal”$/);
    await waitText(/^echo: The bridge that runs you restarted/);
  });
});

describe('what a turn at work notes for a restart', () => {
  it('a chatty turn’s quick tool calls do not rewrite the chat store each (it said two writes a call)', async () => {
    world = await startTelegramWorld();
    say('warm up');
    await waitText(/^echo: warm up/);
    // Each write of chats.json renames a temporary file onto it.
    let writes = 0;
    const watcher = watch(world.dataDir, (event, name) => void (event === 'rename' && name === 'chats.json' && writes++));
    try {
      say('tools:100 pace:10 chatty');
      await waitText(/^echo: tools:100 pace:10 chatty/);
      await world.bridge.waitForLog(/turn completed/);
    } finally {
      watcher.close();
    }
    // The message taken, the turn started and its first call, its session, its end: a few a turn, none a call.
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThan(10);
  });

  it('a call that lasts is noted, so a kill then resumes the turn naming it', async () => {
    world = await startTelegramWorld();
    say('hang-in-tool build it');
    await expect.poll(() => readFile(join(world!.dataDir, 'chats.json'), 'utf8'), { timeout: 20_000 }).toContain('"inFlight": "Bash make build"');
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    const answer = await waitText(/^echo: The bridge that runs you restarted/);
    expect(answer.text).toContain('The tool call in flight was: Bash make build');
  });
});

describe('a restart drains runs too', () => {
  it('lets a run finish and be announced during the drain; one the drain cuts short is resumed in its session and announced once', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '3' });
    say('/spawn --label Quick "sleep:1 say:drained"');
    say('/spawn --label Long "hang-in-tool build"');
    await waitText(/^🚀 #2 started: Long/);
    // The long one's CLI has named its session (so it can be resumed in it).
    await expect.poll(() => readFile(join(world!.dataDir, 'subagents.json'), 'utf8'), { timeout: 20_000 }).toMatch(/"childSessionId"[^]*"childSessionId"/);
    world.bridge.kill('SIGTERM');
    await waitText(/^✅ #1 Quick[^]*drained/);
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    expect(texts().filter((text) => /^[✅❌] #2/.test(text))).toEqual([]);
    await world.restart();
    await waitText(/^✅ #2 Long[^]*echo: The bridge that runs you restarted while you were working on your task/);
    const calls = await invocations();
    expect(calls.at(-1)!.resume).toBe(calls.find((call) => call.prompt === 'hang-in-tool build')!.session);
    expect(texts().filter((text) => /^[✅❌] #\d/.test(text))).toHaveLength(2);
  });
});

describe('an announcement a kill cut short', () => {
  it('is sent again at the next start, which says its call’s outcome was unknown: a part goes again rather than never', async () => {
    world = await startTelegramWorld();
    // The announcement's call reaches Telegram and is never answered (nor taken): the bridge is killed during it.
    world.telegram.failNext('sendMessage', { hang: true }, { chatId: CHAT, text: /✅ #1 Quick/ });
    say('/spawn --label Quick "say:done"');
    await world.telegram.waitFor(() => world!.telegram.callsTo('sendMessage').find((call) => /✅ #1 Quick/.test(String(call.params.text))));
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    await waitText(/^✅ #1 Quick[^]*done/);
    await world.bridge.waitForLog(/the bridge stopped while announcing it .*whether the chat got that part is unknown, so it goes again/);
    expect(texts().filter((text) => /^✅ #1 Quick/.test(text))).toHaveLength(1);
  });

  it('waits for a start that stays: one signalled while it starts announces nothing left from before, and the next announces it once', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '30' });
    const { say: sayInB } = ownerIn(() => world!, CHAT - 1, 30_000);
    // A turn cut short and one behind it that will hold the drain until told; a run whose announcement the kill cuts.
    await atWorkWithOneQueued('hang one', 'wait-for:go two');
    world.telegram.failNext('sendMessage', { hang: true }, { chatId: CHAT, text: /✅ #1 Quick/ });
    say('/spawn --label Quick "say:done"');
    await world.telegram.waitFor(() => world!.telegram.callsTo('sendMessage').find((call) => /✅ #1 Quick/.test(String(call.params.text))));
    // Another chat's turn cut short, whose resume notice will meet a flood limit: the start is still at work when signalled.
    await restartTakingUp(() => sayInB('hang three'));
    world.bridge.kill('SIGTERM');
    await world.bridge.waitForLog(/restarting again before the interrupted work was all taken up/, 20_000);
    const announcing = () => world!.telegram.callsTo('sendMessage').filter((call) => /✅ #1 Quick/.test(String(call.params.text)));
    // The start has gone on to its end meanwhile (the drain holds the process): still only the call the kill cut.
    await world.bridge.waitForLog(/the start ended during a restart: what is left to announce waits for the next start/, 20_000);
    await writeFile(join(world.workdir, 'go'), '');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    expect(announcing()).toHaveLength(1);
    await world.restart();
    await waitText(/^✅ #1 Quick[^]*done/);
    expect(announcing()).toHaveLength(2);
    expect(texts().filter((text) => /^✅ #1 Quick/.test(text))).toHaveLength(1);
  });
});

describe('the next start takes up what a kill cut short', () => {
  it('resumes a turn killed mid-work, then runs the message queued behind it, in order', async () => {
    world = await startTelegramWorld();
    await atWorkWithOneQueued('hang one', 'two');
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    await waitText(/^echo: two/);
    const answers = texts().filter((text) => /^(↻|echo:)/.test(text));
    expect(answers).toEqual([
      '↻ Resuming after the restart: “hang one”',
      expect.stringMatching(/^echo: The bridge that runs you restarted/),
      expect.stringMatching(/^echo: two/),
    ]);
  });

  it('a signal while the start takes up what was cut short: nothing more starts, nothing is served, and the next start takes it all up, in order', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '30' });
    const { say: sayInB, waitText: waitInB } = ownerIn(() => world!, CHAT - 1, 30_000);
    // The first chat (taken up first, as the oldest record): a turn cut short, and one waiting behind it that holds the drain until told.
    await atWorkWithOneQueued('hang one', 'wait-for:go two');
    // The second: a turn cut short, whose resume notice will meet a flood limit.
    await restartTakingUp(() => sayInB('hang three'));
    const polls = world.telegram.callsTo('getUpdates').length;
    world.bridge.kill('SIGTERM');
    // The notice goes out during the drain; the resume after it does not start.
    await world.bridge.waitForLog(/restarting again before the interrupted work was all taken up/, 20_000);
    await writeFile(join(world.workdir, 'go'), '');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    expect((await invocations()).filter((call) => call.prompt.startsWith('The bridge that runs you restarted'))).toHaveLength(1);
    expect(world.telegram.callsTo('getUpdates')).toHaveLength(polls);
    await world.restart();
    await waitInB(/^echo: The bridge that runs you restarted/);
    expect(world.telegram.botMessages(CHAT - 1).filter((message) => shownText(message).startsWith('↻ Resuming'))).toHaveLength(2);
    expect(texts().filter((text) => /^(↻|echo:)/.test(text))).toEqual([
      '↻ Resuming after the restart: “hang one”',
      expect.stringMatching(/^echo: The bridge that runs you restarted/),
      expect.stringMatching(/^echo: wait-for:go two/),
    ]);
  });

  it('resumes a few times at most: a turn killed during every resume is named to the chat, not resumed for ever', async () => {
    world = await startTelegramWorld();
    const go = join(world.workdir, 'go');
    say('wait-for:go first');
    await waitText(/^⚙️ claude · working/);
    // Steered into the waiting turn, so the resume's own words carry it: each resumed turn hangs.
    say('then hang');
    await waitText(/➕ added: then hang/);
    for (let attempt = 1; attempt <= RESUME_ATTEMPTS; attempt++) {
      world.bridge.kill('SIGKILL');
      await world.bridge.exited;
      await world.restart();
      await expect.poll(() => texts().filter((text) => text === '↻ Resuming after the restart: “wait-for:go first”').length, { timeout: 20_000 }).toBe(attempt);
      await hanging(attempt);
    }
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    const told = await waitText(/^⚠️ The bridge restarted before it finished this message:/);
    expect(told.text).toContain('• wait-for:go first');
    await writeFile(go, '');
    say('still here?');
    await waitText(/^echo: still here\?/);
    expect(texts().filter((text) => text.startsWith('↻ Resuming'))).toHaveLength(RESUME_ATTEMPTS);
  });

  it('answers messages the bridge had taken from Telegram but not yet handled (a file downloading, a message waiting behind it), once each', async () => {
    world = await startTelegramWorld({ BRIDGE_BUSY_MODE: 'queue' });
    world.telegram.failNext('download', { hang: true });
    const file = world.telegram.sendFile({
      chatId: CHAT,
      userId: 111,
      chatType: 'group',
      firstName: 'Ada',
      kind: 'document',
      bytes: Buffer.from('log'),
      fileName: 'slow.log',
      caption: 'read slow.log',
    });
    const after = say('and then this');
    // Both are on their way: the download hangs, and the message waits behind it in its chat.
    await expect
      .poll(
        () => world!.telegram.calls.filter((call) => call.method === 'getUpdates' && String(JSON.stringify(call.result)).includes('and then this')).length,
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThan(0);
    await expect.poll(() => world!.telegram.calls.some((call) => call.method === 'getFile'), { timeout: 20_000 }).toBe(true);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    world.telegram.clearFaults();
    await world.restart();
    const first = await waitText(/^echo: read slow\.log/);
    const second = await waitText(/^echo: and then this/);
    expect(first.replyToMessageId).toBe(file.message_id);
    expect(second.replyToMessageId).toBe(after.message_id);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a second answer would be out by now
    expect(texts().filter((text) => /^echo: (read slow|and then this)/.test(text))).toHaveLength(2);
  });

  it('keeps a file waiting for words across a kill: the next message still takes it', async () => {
    world = await startTelegramWorld();
    world.telegram.sendFile({
      chatId: CHAT,
      userId: 111,
      chatType: 'group',
      firstName: 'Ada',
      kind: 'document',
      bytes: Buffer.from('the log'),
      fileName: 'build.log',
    });
    // Saved, and noted in the chat's record as waiting for words.
    await expect.poll(() => readFile(join(world!.dataDir, 'chats.json'), 'utf8'), { timeout: 20_000 }).toContain('build.log');
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    say('say:read-it');
    await waitText(/^read-it/);
    const [call] = await invocations();
    expect(call!.prompt).toMatch(/\n- \.bridge\/inbox\/build\.log \(document, [^)]*1 KB\)$/);
  });

  it('takes up an album the kill caught gathering: its parts make one prompt after the restart', async () => {
    world = await startTelegramWorld();
    world.telegram.failNext('download', { hang: true });
    const part = (name: string, caption?: string) =>
      world!.telegram.sendFile({
        chatId: CHAT,
        userId: 111,
        chatType: 'group',
        firstName: 'Ada',
        kind: 'document',
        bytes: Buffer.from(name),
        fileName: name,
        mediaGroupId: 'album-1',
        ...(caption ? { caption } : {}),
      });
    part('one.log', 'compare these');
    part('two.log');
    // Both parts are kept in the chat's record while the album gathers (its first file's download hangs).
    await expect.poll(() => readFile(join(world!.dataDir, 'chats.json'), 'utf8'), { timeout: 20_000 }).toMatch(/gatheringAlbums[\s\S]*two\.log/);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    world.telegram.clearFaults();
    await world.restart();
    const answer = await waitText(/^echo: compare these/);
    expect(answer.text).toMatch(/one\.log[\s\S]*two\.log/);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a second answer would be out by now
    expect(texts().filter((text) => /^echo: compare these/.test(text))).toHaveLength(1);
    expect(await readFile(join(world.dataDir, 'chats.json'), 'utf8')).not.toMatch(/"gatheringAlbums": \{\s*"album-1"/);
  });

  it('with BRIDGE_RESUME_INTERRUPTED=off, names the interrupted message instead', async () => {
    world = await startTelegramWorld({ BRIDGE_RESUME_INTERRUPTED: 'off' });
    say('hang and be forgotten');
    await hanging();
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    const told = await waitText(/^⚠️ The bridge restarted before it finished this message:/);
    expect(told.text).toContain('• hang and be forgotten');
    expect(await invocations()).toHaveLength(1);
  });
});
