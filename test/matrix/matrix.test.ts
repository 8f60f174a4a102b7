import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMatrix } from '../../src/transports/matrix/reach.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import type { ChatAppTwin } from '../support/chat-apps/chat-app.ts';
import { matrixTwin } from '../support/chat-apps/matrix.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';
import { FakeMatrix } from '../support/fake-matrix/index.ts';

// What the contract suite does not show of Matrix, on one bridge: commands written the Matrix
// way, invites taken only from allowed people, encrypted rooms refused in words, the
// homeserver's M_LIMIT_EXCEEDED waited out, a restart resuming its sync without answering
// anything twice (and buttons that still answer after it), and a token the homeserver logged
// out said plainly.

describe('the Matrix transport', () => {
  let mx: FakeMatrix;
  let app: ChatAppTwin;
  let world: ChatAppWorld;
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    mx = await FakeMatrix.start();
    app = await matrixTwin(mx);
    ada = app.owner.slice('matrix:'.length);
    // Someone besides the owner in its groups: a room of two is a private chat.
    bob = app.addPerson('Bob').slice('matrix:'.length);
    world = await startChatAppWorld([app]);
  }, 60_000);
  afterAll(() => world?.stop());

  /** The bot's messages in a room as a reader sees them: each one's latest edit. */
  const shownIn = (room: string) =>
    mx
      .botMessages(room)
      .map((event) => String((mx.editsOf(event).at(-1)?.content['m.new_content'] as { body?: string } | undefined)?.body ?? event.content.body));

  it('takes !status, !bridge status and a mention, and names its commands !status in help', async () => {
    const room = app.group(1);
    await room.command('status');
    await room.waitFor(/CLI/);
    mx.say({ user: ada, room: room.id, body: '!bridge whoami' });
    await room.waitFor(/^You are Ada/);
    mx.say({ user: ada, room: room.id, body: 'Bridge Bot: help', mentions: [mx.bot.userId] });
    const help = (await room.waitFor(/Commands/)).text;
    expect(help).toMatch(/^!status/m);
    expect(help).not.toMatch(/(^|\s)\/(status|spawn|help)\b/m);
    // Talk among people in the room, not addressed to the bot, stays theirs.
    mx.say({ user: ada, room: room.id, body: 'say:not-for-the-bot' });
    await room.say('say:for-the-bot');
    await room.waitFor(/^for-the-bot/);
    expect((await room.shown()).some((m) => /not-for-the-bot/.test(m.text))).toBe(false);
  });

  it("takes !allow written as a reply to someone's message: its writer may use the room from then on", async () => {
    const room = app.group(12);
    const asked = mx.say({ user: bob, room: room.id, body: 'may I use the bot too?' });
    mx.say({ user: ada, room: room.id, body: '!allow', replyTo: asked.event_id });
    expect((await room.waitFor(/may use the bridge in this chat/)).text).toMatch(/Bob/);
    mx.say({ user: bob, room: room.id, body: '!whoami' });
    await room.waitFor(/^You are Bob/);
  });

  it('takes a button’s number written as the answer, for clients that show no reactions', async () => {
    const chat = app.direct();
    await chat.say('question pick');
    const asked = await chat.waitFor(/Which color\?/);
    const blue = asked.buttons.findIndex((label) => /^Blue/.test(label));
    await chat.say(String(blue + 1));
    expect((await chat.waitFor(/^echo: question pick/)).text).toContain('answered: Blue');
  });

  it('names the commands in what a press answers the Matrix way, as in every other text', async () => {
    const room = app.group(9);
    await room.say('say:a-first-session');
    await room.waitFor(/^a-first-session/);
    await room.command('resume');
    const listed = await room.waitFor(/^Sessions, newest first/);
    await room.say('hang');
    await expect.poll(async () => (await room.shown()).some((m) => m.buttons.some((label) => /Stop/.test(label))), { timeout: 20_000 }).toBe(true);
    // Resuming waits for the running turn: the answer says how to stop it, as this room writes it.
    await room.press(listed, /^▶ 1\./);
    expect((await room.waitFor(/^A turn is running\./)).text).toBe('A turn is running. !stop it first, or wait for it to end.');
    await room.command('stop');
    await room.waitFor(/^⏹ Stopped the turn/);
  });

  it('says what a press did, and answers a press on a question from before a restart, not ignoring it', async () => {
    const room = app.group(7);
    const questions = async () => (await room.shown()).filter((m) => /Which color\?/.test(m.text));
    await room.say('question pick');
    const first = await room.waitFor(/Which color\?/);
    await room.press(first, /^Blue/);
    await room.waitFor(/^✅ Blue/);
    expect((await room.waitFor(/^echo: question pick/)).text).toContain('answered: Blue');
    await room.say('question pick');
    await expect.poll(async () => (await questions()).length).toBe(2);
    const second = (await questions()).at(-1)!;
    await world.restart();
    await room.press(second, /^Red/);
    await room.waitFor(/^This question was already answered\./);
    // Its turn was taken up again after the restart, in its session.
    await room.waitFor(/^echo: The bridge that runs you restarted/);
  });

  it('joins a room an allowed person invites it to, and declines a stranger’s invite saying why', async () => {
    const direct = mx.createRoom({ creator: ada, invite: [mx.bot.userId], direct: true }).roomId;
    await mx.waitFor(() => mx.membership(direct, mx.bot.userId) === 'join');
    mx.say({ user: ada, room: direct, body: 'say:invited-here' });
    await mx.waitFor(() => shownIn(direct).find((text) => /^invited-here/.test(text)));

    const stranger = mx.addUser('eve', 'Eve').userId;
    const theirs = mx.createRoom({ creator: stranger, invite: [mx.bot.userId] }).roomId;
    await mx.waitFor(() => mx.membership(theirs, mx.bot.userId) === 'leave');
    const left = mx.rooms.get(theirs)!.state.get(`m.room.member\u0000${mx.bot.userId}`)!;
    expect(left.content.reason).toMatch(/@eve:example\.org is not allowed to use this bridge/);
  });

  it('refuses an encrypted room in words, then leaves it', async () => {
    const secret = mx.createRoom({ creator: ada, invite: [mx.bot.userId], encrypted: true }).roomId;
    await mx.waitFor(() => mx.membership(secret, mx.bot.userId) === 'leave');
    const said = mx.botMessages(secret).map((e) => String(e.content.body));
    expect(said).toEqual([expect.stringMatching(/^⛔ This room is end-to-end encrypted, and this bridge cannot read encrypted messages/)]);
    expect(mx.rooms.get(secret)!.state.get(`m.room.member\u0000${mx.bot.userId}`)!.content.reason).toMatch(/end-to-end encrypted/);
  });

  it('waits out M_LIMIT_EXCEEDED for the time the homeserver asks, and answers', async () => {
    const room = app.group(2);
    mx.limit.refuseNext(2);
    await room.say('say:after-limit');
    await room.waitFor(/^after-limit/);
    expect(mx.calls.filter((call) => call.status === 429).length).toBe(2);
  });

  it('resumes its sync from the kept token after a restart, answering what came meanwhile once and nothing twice', async () => {
    const chat = app.direct();
    await chat.say('say:before-restart');
    await chat.waitFor(/^before-restart/);
    world.bridge.kill('SIGTERM');
    await world.bridge.exited;
    await chat.say('say:while-down');
    const syncs = mx.calls.filter((call) => call.route === 'GET /sync').length;
    await world.restart();
    await chat.waitFor(/^while-down/);
    await chat.say('say:after-restart');
    await chat.waitFor(/^after-restart/);
    // The first sync of the new process carried the kept token: no initial sync.
    expect(mx.calls.filter((call) => call.route === 'GET /sync').slice(syncs)[0]?.since).toMatch(/^s\d+$/);
    const answers = (await chat.shown()).map((m) => m.text).filter((text) => /^(before-restart|while-down|after-restart)/.test(text));
    expect(answers).toHaveLength(3);
    const prompts = (await world.cli.invocations()).map((c) => c.prompt).filter((p) => /^say:(before-restart|while-down|after-restart)$/.test(p));
    expect(prompts).toEqual(['say:before-restart', 'say:while-down', 'say:after-restart']);
  });

  it('says so when the homeserver logs the bot out (M_UNKNOWN_TOKEN)', async () => {
    mx.revoked.add(mx.token);
    await world.bridge.waitForLog(/the homeserver logged the bot out \(M_UNKNOWN_TOKEN\)/, 20_000);
  });
});

describe('a bridge whose Matrix token the homeserver does not know', () => {
  it('is told so by the doctor, which names the account of a good one', async () => {
    const mx = await FakeMatrix.start();
    try {
      expect(await checkMatrix({ homeserverUrl: mx.url, accessToken: mx.token })).toEqual([
        expect.objectContaining({ ok: true, subject: 'Matrix token', found: '@bridgebot:example.org (Bridge Bot)' }),
      ]);
      const [refused] = await checkMatrix({ homeserverUrl: mx.url, accessToken: 'syt_not_a_token_of_this_server' });
      expect(refused).toMatchObject({ ok: false, subject: 'Matrix token' });
      expect(refused!.found).toMatch(/refused MATRIX_ACCESS_TOKEN \(M_UNKNOWN_TOKEN/);
    } finally {
      await mx.close();
    }
  });

  it('stops the start in one line', async () => {
    const mx = await FakeMatrix.start();
    const data = await tempDir('bridge-data-');
    try {
      const bridge = startBridgeProcess({
        MATRIX_HOMESERVER_URL: mx.url,
        MATRIX_ACCESS_TOKEN: 'syt_not_a_token_of_this_server',
        BRIDGE_DATA_DIR: data.path,
        BRIDGE_ALLOWED_USERS: 'matrix:@ada:example.org',
      });
      expect((await bridge.exited).code).toBe(78);
      expect(bridge.logEntries().filter((entry) => entry.level === 'fatal')[0]?.msg).toMatch(/the homeserver refused MATRIX_ACCESS_TOKEN \(M_UNKNOWN_TOKEN/);
    } finally {
      await Promise.all([mx.close(), data.remove()]);
    }
  });
});
