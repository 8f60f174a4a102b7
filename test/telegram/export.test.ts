import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, STRANGER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// /export against the bridge as a real process, the fake Bot API and the fake CLI: a chat's
// session, or one of its runs, comes as a Markdown and a JSON file, each tool call folded.
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld();
}, 60_000);
afterAll(() => world?.stop());

function chat(chatId: number) {
  const { telegram } = world;
  return {
    say: (text: string) => telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada' }),
    waitText: (pattern: RegExp) => telegram.waitFor(() => telegram.botMessages(chatId).find((m) => pattern.test(shownText(m))), 30_000),
    document: (pattern: RegExp) => telegram.waitFor(() => telegram.botMessages(chatId).find((m) => pattern.test(m.document?.fileName ?? '')), 30_000),
  };
}

interface Exported {
  format: string;
  kind: string;
  session?: string;
  turns: {
    prompt?: string;
    by?: string;
    sender?: string;
    answer?: string;
    status?: string;
    steps: { kind: string; name?: string; input?: unknown; output?: string; text?: string }[];
  }[];
}

describe('/export', () => {
  it("sends the chat's session as Markdown and JSON, each tool call folded with its input and output", async () => {
    const ada = chat(OWNER);
    ada.say('tools:2 say:**Done**');
    await ada.waitText(/^Done$/);
    ada.say('say:second');
    await ada.waitText(/^second$/);
    ada.say('/export');
    const markdown = await ada.document(/^session-.*\.md$/);
    const json = await ada.document(/^session-.*\.json$/);
    expect(markdown.caption).toMatch(/^📤 Session with claude · 2 turns/);

    const text = markdown.document!.bytes.toString('utf8');
    expect(text).toMatch(/^# Session with claude\n/);
    expect(text.match(/<details>/g)).toHaveLength(2);
    expect(text).toContain('<summary>🔧 Bash: echo step 1 ✓</summary>');
    expect(text).toContain('Input:\n\n```json\n{\n  "command": "echo step 1"\n}\n```');
    expect(text).toContain('Output:\n\n```\nstep 1\n```');
    expect(text).toContain('> tools:2 say:**Done**');
    expect(text).toContain('**Answer**\n\n**Done**');
    // The answer is said once: as the answer, not again as the prose before it.
    expect(text.match(/\*\*Done\*\*/g)).toHaveLength(2);
    expect(text).toContain('> say:second');

    const data = JSON.parse(json.document!.bytes.toString('utf8')) as Exported;
    expect(data.format).toBe('jsonl-bridge.conversation');
    expect(data.kind).toBe('session');
    expect(data.turns).toHaveLength(2);
    const [first, second] = data.turns;
    expect(first!.prompt).toBe('tools:2 say:**Done**');
    expect(first!.by).toBe(`telegram:${OWNER}`);
    expect(first!.sender).toBe('Ada');
    expect(text).toContain(`## Turn 1 · `);
    expect(text).toMatch(/## Turn 1 · \d{4}-\d\d-\d\d \d\d:\d\d UTC · Ada \(telegram:111\)\n/);
    expect(first!.steps).toEqual([
      { kind: 'tool', id: 'toolu_fake_1', name: 'Bash', summary: 'echo step 1', input: { command: 'echo step 1' }, output: 'step 1' },
      { kind: 'tool', id: 'toolu_fake_2', name: 'Bash', summary: 'echo step 2', input: { command: 'echo step 2' }, output: 'step 2' },
    ]);
    expect(first!.answer).toBe('**Done**');
    expect(first!.status).toBe('completed');
    expect(second!.answer).toBe('second');
  });

  it('sends the same session after a restart: the transcript is kept on disk', async () => {
    const ada = chat(OWNER);
    const exports = () => world.telegram.botMessages(OWNER).filter((m) => /^session-.*\.json$/.test(m.document?.fileName ?? ''));
    const before = exports().length;
    await world.restart();
    ada.say('/export');
    const json = await world.telegram.waitFor(() => exports()[before], 30_000);
    const data = JSON.parse(json.document!.bytes.toString('utf8')) as Exported;
    expect(data.turns.map((turn) => turn.prompt)).toEqual(['tools:2 say:**Done**', 'say:second']);
  });

  it('keeps a message sent into a turn while it worked, in that turn, with who sent it', async () => {
    const chatId = -5300;
    const group = chat(chatId);
    const say = (text: string) => world.telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada', chatType: 'group' });
    say('tools:3 pace:700 say:busy until-heard');
    await world.telegram.waitFor(() => world.telegram.botMessages(chatId).find((m) => /echo step 1/.test(m.text ?? '')), 30_000);
    say('also look at the tests');
    await group.waitText(/heard: also look at the tests/);
    say('/export');
    const text = (await group.document(/^session-.*\.md$/)).document!.bytes.toString('utf8');
    expect(text).toContain('**Sent while it worked by Ada (telegram:111):**\n\n> also look at the tests');
    const data = JSON.parse((await group.document(/^session-.*\.json$/)).document!.bytes.toString('utf8')) as Exported;
    expect(data.turns).toHaveLength(1);
    expect(data.turns[0]!.steps.filter((step) => step.kind === 'message')).toEqual([
      { kind: 'message', text: 'also look at the tests', by: 'telegram:111', sender: 'Ada' },
    ]);
  });

  it('says so when the session has no turns yet, and after /new', async () => {
    const chatId = -5200;
    const group = chat(chatId);
    const say = (text: string) => world.telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada', chatType: 'group' });
    say('/export');
    const empty = 'Nothing to export: this chat’s session has no turns yet. Send a message, then /export.';
    expect(shownText(await group.waitText(/^Nothing to export/))).toBe(empty);
    say('say:hello');
    await group.waitText(/^hello$/);
    say('/new');
    await group.waitText(/^🆕/);
    say('/export');
    await world.telegram.waitFor(() => world.telegram.botMessages(chatId).filter((m) => shownText(m) === empty).length === 2 || undefined, 30_000);
    expect(world.telegram.botMessages(chatId).some((m) => m.document)).toBe(false);
  });

  it('sends a run of the chat, by its number, with its tool calls folded; an unknown run is named', async () => {
    const chatId = -5100;
    const group = {
      ...chat(chatId),
      say: (text: string) => world.telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada', chatType: 'group' }),
    };
    group.say('/spawn --label Notes "tools:1 say:noted"');
    await group.waitText(/^✅ #1 Notes/);
    group.say('/export run 1');
    const markdown = await group.document(/^run-1\.md$/);
    const json = await group.document(/^run-1\.json$/);
    expect(markdown.caption).toMatch(/^📤 Run #1 Notes · 1 turn/);
    const text = markdown.document!.bytes.toString('utf8');
    expect(text).toMatch(/^# Run #1 Notes\n/);
    expect(text).toContain('Status: completed');
    expect(text).toContain('<summary>🔧 Bash: echo step 1 ✓</summary>');
    expect(text).toContain('**Answer**\n\nnoted');
    const data = JSON.parse(json.document!.bytes.toString('utf8')) as Exported;
    expect(data.kind).toBe('run');
    expect(data.turns[0]!.prompt).toBe('tools:1 say:noted');
    expect(data.turns[0]!.steps[0]).toMatchObject({ kind: 'tool', name: 'Bash', input: { command: 'echo step 1' }, output: 'step 1' });

    group.say('/export 1');
    await world.telegram.waitFor(() => world.telegram.botMessages(chatId).filter((m) => m.document?.fileName === 'run-1.md').length === 2 || undefined, 30_000);
    group.say('/export 7');
    expect(shownText(await group.waitText(/No run "7"/))).toMatch(/^⚠️? ?No run "7" in this chat\. \/subagents lists them\./);
  });

  it("is refused to someone who is not of the bridge's people, who gets no file", async () => {
    const chatId = -5100;
    const before = world.telegram.botMessages(chatId).filter((m) => m.document).length;
    world.telegram.sendText({ chatId, userId: STRANGER, text: '/export run 1', firstName: 'Eve', chatType: 'group' });
    const refusal = await world.telegram.waitFor(() => world.telegram.botMessages(chatId).find((m) => shownText(m).includes(String(STRANGER))), 30_000);
    expect(shownText(refusal)).toMatch(/^⛔/);
    expect(world.telegram.botMessages(chatId).filter((m) => m.document).length).toBe(before);
  });
});
