import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowButtonOf, OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A chat's permission mode: the bridge's default, changed with /permissions, kept across a
// restart, and turned into the CLI's own flags on the next turn.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld({ BRIDGE_PERMISSION_MODE: 'ask' })));
afterAll(() => world.stop());

let nextChat = -1700;
const newChat = () => nextChat--;
const say = (chat: number, text: string) => world.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const answer = (chat: number, pattern: RegExp) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => pattern.test(m.text ?? '')), 20_000);
/** The callback data of a message's button with this text. */
const buttonData = (message: { buttons: readonly unknown[] }, text: string) =>
  (message.buttons as { text: string; callback_data: string }[]).find((button) => button.text === text)!.callback_data;
const argvOf = async (prompt: string) => (await world.cli.invocations()).find((c) => c.prompt === prompt)!.argv;

describe('/permissions', () => {
  it('starts from BRIDGE_PERMISSION_MODE: the live CLI asks the bridge over its control channel, the chat answers with buttons', async () => {
    const chat = newChat();
    say(chat, '/permissions');
    const shown = await answer(chat, /^🔐 Permissions: ask \(the bridge's default\)/);
    expect(shown.text).toContain('Subagents the agent starts ask here too.');
    expect(shown.text).toContain('Change it with /permissions safe|ask|bypass.');
    say(chat, 'tools:1 say:asking');
    const question = await answer(chat, /Bash/);
    world.telegram.pressButton({ chatId: chat, messageId: question.messageId, data: buttonData(question, '✅ Allow'), userId: OWNER });
    const answered = await answer(chat, /^asking/);
    expect(answered.text).not.toContain('denied');
    const argv = await argvOf('tools:1 say:asking');
    expect(argv.slice(argv.indexOf('--permission-prompt-tool'), argv.indexOf('--permission-prompt-tool') + 2)).toEqual(['--permission-prompt-tool', 'stdio']);
    expect(argv).not.toContain('--dangerously-skip-permissions');
    // Claude Code gives up on a tool call after 60 s by default: the bridge's tools (a spawn that asks) get longer.
    const config = JSON.parse(await readFile(argv[argv.indexOf('--mcp-config') + 1]!, 'utf8'));
    expect(config.mcpServers.bridge.timeout).toBeGreaterThan(300_000);

    say(chat, 'tools:1 say:refused');
    const second = await world.telegram.waitFor(
      () =>
        world.telegram
          .botMessages(chat)
          .filter((m) => /Bash/.test(m.text ?? '') && allowButtonOf(m))
          .at(-1),
      20_000,
    );
    world.telegram.pressButton({ chatId: chat, messageId: second.messageId, data: buttonData(second, '⛔ Deny'), userId: OWNER });
    expect((await answer(chat, /^refused/)).text).toContain('denied: Denied by Ada from the chat.');
  });

  it("safe: reading only, writes refused by the bridge, without the bridge's tools; the conversation continues; kept across a restart", async () => {
    const chat = newChat();
    say(chat, 'say:first');
    await answer(chat, /^first/);
    say(chat, '/permissions safe');
    const set = await answer(chat, /^🔐 Permissions: safe: only tools that read/);
    expect(set.text).toContain('The agent cannot start subagents in this mode');
    expect(set.text).toContain('From the next message on; the conversation continues.');
    say(chat, 'tools:1 say:reading');
    const reading = await answer(chat, /^reading/);
    expect(reading.text).toContain('denied: This chat only reads (/permissions safe), so Bash was refused.');
    const call = (await world.cli.invocations()).find((c) => c.prompt === 'tools:1 say:reading')!;
    expect(call.argv).not.toContain('--mcp-config');
    expect(call.argv).not.toContain('--dangerously-skip-permissions');
    expect(call.argv).toContain('--disallowedTools');
    expect(call.session).toBe((await world.cli.invocations()).find((c) => c.prompt === 'say:first')!.session); // the same conversation

    await world.restart();
    say(chat, '/status');
    expect((await answer(chat, /^Status\n/)).text).toMatch(/\nPermissions: safe\n/);
    say(chat, '/permissions bypass');
    await answer(chat, /^🔐 Permissions: bypass: tools run without asking\./);
    say(chat, 'tools:1 say:free');
    expect((await answer(chat, /^free/)).text).not.toContain('denied');
  });

  it('refuses an unknown mode and changes nothing', async () => {
    const chat = newChat();
    say(chat, '/permissions yolo');
    const refused = await answer(chat, /^⚠️ Unknown permission mode "yolo": safe, ask, bypass\./);
    expect(refused.text).toContain('Usage: /permissions [safe|ask|bypass]');
    say(chat, '/permissions');
    await answer(chat, /^🔐 Permissions: ask \(the bridge's default\)/);
  });

  it('says so where the CLI cannot ask: droid runs read-only in ask mode, while codex asks over its app server', async () => {
    const chat = newChat();
    say(chat, '/cli codex');
    const switched = await answer(chat, /^🔀 Switched to codex\./);
    expect(switched.text).not.toContain('cannot ask');
    say(chat, '/status');
    const status = (await answer(chat, /^Status\n/)).text;
    expect(status).toContain('Permissions: ask');
    expect(status).not.toContain('runs safe');
    say(chat, '/cli droid');
    await answer(chat, /^🔀 Switched to droid\.[^]*droid cannot ask the chat before a tool runs, so it runs read-only instead\./);
  });
});
