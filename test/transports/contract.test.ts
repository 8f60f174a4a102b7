import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { TRANSPORTS } from '../../src/kernel/known-transports.ts';
import type { ChatAppTwin, ChatOnApp } from '../support/chat-apps/chat-app.ts';
import { CHAT_APP_TWINS } from '../support/chat-apps/index.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';

// The transport contract: what people rely on in any chat app, run against each transport's
// twin through its real client library, with the bridge as a process and the fake CLI.
// A new transport passes this before it is listed. Each case but the restart has a chat of its
// own, so they run at once in the app's one bridge, as a team's chats do; the restart comes last.

it('covers every chat app the bridge serves', () => {
  const chatApps = TRANSPORTS.map((t) => t.id).filter((id) => id !== 'console' && id !== 'web');
  expect(Object.keys(CHAT_APP_TWINS).sort()).toEqual(chatApps.sort());
});

describe.each(Object.entries(CHAT_APP_TWINS))('the %s transport', (_id, makeTwin) => {
  let world: ChatAppWorld;
  let app: ChatAppTwin;
  let groups = 0;
  const group = () => app.group(++groups);
  /** A team beside the owner: an admin, two members, and someone nobody allowed yet. */
  let team: { admin: string; mia: string; max: string; sam: string };

  beforeAll(async () => {
    app = await makeTwin();
    team = { admin: app.addPerson('Ade'), mia: app.addPerson('Mia'), max: app.addPerson('Max'), sam: app.addPerson('Sam') };
    // Only the people an admin names start turns in groups: the owner's tests above are unaffected.
    world = await startChatAppWorld([app], {
      BRIDGE_ALLOWED_USERS: [app.owner, team.mia, team.max].join(','),
      BRIDGE_ADMINS: team.admin,
      BRIDGE_GROUP_TURNS: 'allowed',
    });
  }, 60_000);
  afterAll(() => world?.stop());

  it.concurrent('answers a turn in the message that showed its progress', async ({ expect }) => {
    const chat = group();
    await chat.say('tools:3 pace:300 say:answered-here');
    const answer = await chat.waitFor(/^answered-here/);
    expect(answer.edits).toBeGreaterThan(0);
    expect((await chat.shown()).filter((m) => /answered-here/.test(m.text))).toHaveLength(1);
  });

  it.concurrent("splits a long answer within the app's limit, losing nothing", async ({ expect }) => {
    const chat = group();
    await chat.say('long:9000');
    // The twin refuses a message past the app's limit, as the app does: all of it shown is all of it within.
    await expect.poll(async () => (await chat.shown()).map((m) => m.text).join('\n').length, { timeout: 30_000 }).toBeGreaterThan(8500);
    const shown = await chat.shown();
    // An app whose one message holds it all (past this, an answer goes as a document) shows it whole.
    expect(shown.length).toBeGreaterThan((app.messageChars ?? 0) > 9000 ? 0 : 1);
  });

  it.concurrent('asks before a tool runs in ask mode, with buttons; Allow lets it run', async ({ expect }) => {
    const chat = group();
    await chat.command('permissions', 'ask');
    await chat.waitFor(/Permissions: ask/);
    await chat.say('tools:1 say:allowed-ran');
    const question = await chat.waitFor(/Bash/);
    expect(question.buttons.some((label) => /Allow/.test(label))).toBe(true);
    await chat.press(question, /^✅ Allow$/);
    await chat.waitFor(/^allowed-ran/);
  });

  it.concurrent("puts the agent's question as buttons, and a press answers it", async ({ expect }) => {
    const chat = group();
    await chat.say('question pick');
    const asked = await chat.waitFor(/Which color\?/);
    await chat.press(asked, /^Blue/);
    expect((await chat.waitFor(/^echo: question pick/)).text).toContain('answered: Blue');
  });

  it.concurrent('takes a file into the chat’s inbox, and sends one back', async ({ expect }) => {
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

  it.concurrent('keeps a session per thread', async ({ expect }) => {
    const parent = group();
    const [a, b] = [parent.thread(1), parent.thread(2)];
    await a.say('say:alpha');
    await b.say('say:beta');
    await a.waitFor(/^alpha/);
    await b.waitFor(/^beta/);
    const runs = (await world.cli.invocations()).filter((c) => c.prompt === 'say:alpha' || c.prompt === 'say:beta');
    expect(new Set(runs.map((c) => c.session)).size).toBe(2);
  });

  it.concurrent('stops a turn with its Stop button, keeping the session', async ({ expect }) => {
    const chat = group();
    await chat.say('hang');
    const progress = await waitForButton(chat, /Stop/, expect);
    await chat.press(progress, /Stop/);
    await chat.waitFor(/stopped/);
    await chat.say('say:after-stop');
    await chat.waitFor(/^after-stop/);
  });

  it.concurrent('steers: a message sent mid-turn joins it', async ({ expect }) => {
    const chat = group();
    await chat.say('tools:8 pace:300 first until-heard');
    await chat.waitFor(/Bash/);
    await chat.say('also this');
    expect((await chat.waitFor(/^echo: tools:8 pace:300 first/, 30_000)).text).toContain('heard: also this');
  });

  it.concurrent('runs /spawn and announces its result once', async ({ expect }) => {
    const chat = group();
    await chat.command('spawn', '"say:spawned-result"');
    await chat.waitFor(/#\d+ started/);
    await chat.waitFor(/spawned-result/, 30_000);
    await expect.poll(async () => (await chat.shown()).filter((m) => /spawned-result/.test(m.text)).length, { timeout: 2000 }).toBe(1);
  });

  it.concurrent('lets a team of owner, admin and members each do what their role allows here, and nothing more', async ({ expect }) => {
    const room = group();
    const [admin, mia, max, sam] = [room.as(team.admin), room.as(team.mia), room.as(team.max), room.as(team.sam)];
    const idOf = (person: string) => person.slice(person.indexOf(':') + 1);
    /** The bot's next message here matching `pattern` after `act`. */
    const answerTo = async (act: () => Promise<void>, pattern: RegExp) => {
      const before = new Set((await room.shown()).map((m) => m.id));
      await act();
      const fresh = async () => (await room.shown()).filter((m) => !before.has(m.id)).map((m) => m.text);
      await expect
        .poll(async () => (await fresh()).find((text) => pattern.test(text)) ?? (await fresh()).join('\n---\n'), { timeout: 20_000 })
        .toMatch(pattern);
      return (await fresh()).find((text) => pattern.test(text))!;
    };
    await answerTo(() => room.say('say:team-room'), /^team-room/);

    // A member looks, but changes nothing of the chat's, nor starts work until an admin names them.
    expect(await answerTo(() => mia.command('permissions', 'ask'), /^⛔/)).toMatch(
      opening(room, '⛔ /permissions ask needs an admin (BRIDGE_ADMINS) or an owner; you are a member'),
    );
    await answerTo(() => mia.say('say:mia-early'), opening(room, "⛔ In this group only the people an admin named with /allow start the agent's work"));
    await answerTo(() => mia.command('spawn', '"say:mia-run"'), opening(room, '⛔ In this group only the people an admin named with /allow'));
    expect(await answerTo(() => mia.command('whoami'), /^You are Mia/)).toMatch(/a member here[^]*and you are not one/);
    await answerTo(() => mia.command('allow', idOf(team.max)), opening(room, `⛔ /allow ${idOf(team.max)} needs an admin`));

    // The admin names her; she starts turns.
    expect(await answerTo(() => admin.command('allow', idOf(team.mia)), /^✅/)).toBe(
      `✅ Mia (${team.mia}) may use the bridge in this chat, and start the agent’s work.`,
    );
    await answerTo(() => mia.say('say:mia-turn'), /^mia-turn/);

    // Someone nobody allowed is told how to be; the admin names them by the name they wrote under.
    expect(await answerTo(() => sam.say('say:sam-early'), /^⛔ Sorry/)).toContain(room.written('or an admin can /allow you in this chat'));
    expect(await answerTo(() => admin.command('allow', 'Sam'), /^✅/)).toBe(
      `✅ Sam (${team.sam}) may use the bridge in this chat, and start the agent’s work.`,
    );
    await answerTo(() => sam.say('say:sam-turn'), /^sam-turn/);

    // A member the admin denies here is refused here, saying who; the owner cannot be denied.
    await answerTo(() => max.command('whoami'), /^You are Max/);
    expect(await answerTo(() => admin.command('deny', idOf(team.max)), /^⛔ Max/)).toBe(
      room.written(
        `⛔ Max (${team.max}) is denied in this chat: their messages and presses here are refused. Their runs here go on: /subagents stop ends one.`,
      ),
    );
    expect(await answerTo(() => max.say('say:max'), /^⛔/)).toBe(
      room.written('⛔ An admin (Ade) denied you in this chat with /deny; ask one of its admins to /allow you again.'),
    );
    expect(await answerTo(() => admin.command('deny', idOf(app.owner)), /is an owner/)).toMatch(/always allowed, in every chat/);
    const list = await answerTo(() => admin.command('allow'), /^People of this chat/);
    expect(list).toMatch(new RegExp(`⛔ Max \\(${team.max}\\) · denied by Ade`));
    expect(list).toMatch(new RegExp(`✅ Sam \\(${team.sam}\\) · allowed by Ade`));
    // Nothing refused reached the agent.
    const prompts = (await world.cli.invocations()).map((c) => c.prompt);
    expect(prompts.filter((p) => ['say:mia-early', 'say:mia-run', 'say:sam-early', 'say:max'].includes(p))).toEqual([]);
    expect(prompts).toEqual(expect.arrayContaining(['say:mia-turn', 'say:sam-turn']));
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

/** A pattern for a text's opening as `chat` shows the bridge's words: its commands written the app's way. */
function opening(chat: ChatOnApp, text: string): RegExp {
  return new RegExp(`^${chat.written(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** The bot's first message here that carries a matching button. */
async function waitForButton(chat: ChatOnApp, label: RegExp, expect: ExpectStatic) {
  await expect.poll(async () => (await chat.shown()).find((m) => m.buttons.some((b) => label.test(b))), { timeout: 20_000 }).toBeTruthy();
  return (await chat.shown()).find((m) => m.buttons.some((b) => label.test(b)))!;
}
