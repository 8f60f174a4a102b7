import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../../src/transports/index.ts';
import type { ChatAppTwin, ChatOnApp } from '../support/chat-apps/chat-app.ts';
import { CHAT_APP_TWINS } from '../support/chat-apps/index.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';

// The transport contract: what people rely on in any chat app, run against each transport's
// twin through its real client library, with the bridge as a process and the fake CLI.
// A new transport passes this before it is listed.

it('covers every chat app the bridge serves', () => {
  const chatApps = TRANSPORTS.map((t) => t.id).filter((id) => id !== 'console' && id !== 'web');
  expect(Object.keys(CHAT_APP_TWINS).sort()).toEqual(chatApps.sort());
});

describe.each(Object.entries(CHAT_APP_TWINS))('the %s transport', (_id, makeTwin) => {
  let world: ChatAppWorld;
  let app: ChatAppTwin;
  let groups = 0;
  const group = () => app.group(++groups);

  beforeAll(async () => {
    app = await makeTwin();
    world = await startChatAppWorld([app]);
  }, 60_000);
  afterAll(() => world?.stop());

  it('answers a turn in the message that showed its progress', async () => {
    const chat = group();
    await chat.say('tools:3 pace:300 say:answered-here');
    const answer = await chat.waitFor(/^answered-here/);
    expect(answer.edits).toBeGreaterThan(0);
    expect((await chat.shown()).filter((m) => /answered-here/.test(m.text))).toHaveLength(1);
  });

  it("splits a long answer within the app's limit, losing nothing", async () => {
    const chat = group();
    await chat.say('long:9000');
    // The twin refuses a message past the app's limit, as the app does: all of it shown is all of it within.
    await expect.poll(async () => (await chat.shown()).map((m) => m.text).join('\n').length, { timeout: 30_000 }).toBeGreaterThan(8500);
    const shown = await chat.shown();
    expect(shown.length).toBeGreaterThan(1);
  });

  it('asks before a tool runs in ask mode, with buttons; Allow lets it run', async () => {
    const chat = group();
    await chat.command('permissions', 'ask');
    await chat.waitFor(/Permissions: ask/);
    await chat.say('tools:1 say:allowed-ran');
    const question = await chat.waitFor(/Bash/);
    expect(question.buttons.some((label) => /Allow/.test(label))).toBe(true);
    await chat.press(question, /^✅ Allow$/);
    await chat.waitFor(/^allowed-ran/);
  });

  it("puts the agent's question as buttons, and a press answers it", async () => {
    const chat = group();
    await chat.say('question pick');
    const asked = await chat.waitFor(/Which color\?/);
    await chat.press(asked, /^Blue/);
    expect((await chat.waitFor(/^echo: question pick/)).text).toContain('answered: Blue');
  });

  it('takes a file into the chat’s inbox, and sends one back', async () => {
    const chat = group();
    await chat.sendFile({ name: 'notes.txt', bytes: Buffer.from('the contract holds'), caption: 'read it' });
    expect((await chat.waitFor(/^echo: read it/)).text).toMatch(/\.bridge\/inbox\/[^ ]*notes\.txt/);
    await chat.say('write:made.txt');
    await chat.waitFor(/^echo: write:made\.txt/);
    await chat.command('file', 'get made.txt');
    await expect
      .poll(async () => (await chat.shown()).flatMap((m) => m.files).find((f) => f.name === 'made.txt')?.bytes.length, { timeout: 20_000 })
      .toBeGreaterThan(0);
  });

  it('keeps a session per thread', async () => {
    const parent = group();
    const [a, b] = [parent.thread(1), parent.thread(2)];
    await a.say('say:alpha');
    await b.say('say:beta');
    await a.waitFor(/^alpha/);
    await b.waitFor(/^beta/);
    const runs = (await world.cli.invocations()).filter((c) => c.prompt === 'say:alpha' || c.prompt === 'say:beta');
    expect(new Set(runs.map((c) => c.session)).size).toBe(2);
  });

  it('stops a turn with its Stop button, keeping the session', async () => {
    const chat = group();
    await chat.say('hang');
    const progress = await waitForButton(chat, /Stop/);
    await chat.press(progress, /Stop/);
    await chat.waitFor(/stopped/);
    await chat.say('say:after-stop');
    await chat.waitFor(/^after-stop/);
  });

  it('steers: a message sent mid-turn joins it', async () => {
    const chat = group();
    await chat.say('tools:8 pace:300 first');
    await chat.waitFor(/Bash/);
    await chat.say('also this');
    expect((await chat.waitFor(/^echo: tools:8 pace:300 first/, 30_000)).text).toContain('heard: also this');
  });

  it('runs /spawn and announces its result once', async () => {
    const chat = group();
    await chat.command('spawn', '"say:spawned-result"');
    await chat.waitFor(/#\d+ started/);
    await chat.waitFor(/spawned-result/, 30_000);
    await expect.poll(async () => (await chat.shown()).filter((m) => /spawned-result/.test(m.text)).length, { timeout: 2000 }).toBe(1);
  });

  it('answers in the direct chat too, and a turn cut by a restart goes on after it', async () => {
    const chat = app.direct();
    await chat.say('hang-in-tool build it');
    await chat.waitFor(/make build/);
    await world.restart('SIGTERM');
    await chat.waitFor(/^↻ Resuming after the restart: “hang-in-tool build it”$/, 30_000);
    expect((await chat.waitFor(/^echo: The bridge that runs you restarted/, 30_000)).text).toContain('The tool call in flight was: Bash make build');
  });
});

/** The bot's first message here that carries a matching button. */
async function waitForButton(chat: ChatOnApp, label: RegExp) {
  await expect.poll(async () => (await chat.shown()).find((m) => m.buttons.some((b) => label.test(b))), { timeout: 20_000 }).toBeTruthy();
  return (await chat.shown()).find((m) => m.buttons.some((b) => label.test(b)))!;
}
