import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAddressOf, apiClient } from '../support/api-client.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { allowButtonOf, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Two-person approvals through the bridge as a real process: the operator's tool-policy.json
// needs two people's Allow for `git push`, the chat bypasses permissions, the live fake CLI
// asks over its control channel all the same, and an owner, an admin and a member of one
// group press the question's buttons in the fake Bot API.
const OWNER = 111;
const ADMIN = 222;
const MEMBER = 333;
const NAMES: Record<number, string> = { [OWNER]: 'Ada', [ADMIN]: 'Bob', [MEMBER]: 'Mia' };
const POLICY = {
  rules: [
    { tool: 'Bash(git push*)', approvals: 2 },
    { agent: 'deployer', approvals: 2 },
  ],
};
const IDE_TOKEN = 'ide-token-0123456789abcdef';
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld(
    {
      BRIDGE_PERMISSION_MODE: 'bypass',
      BRIDGE_ALLOWED_USERS: `${OWNER},${MEMBER}`,
      BRIDGE_ADMINS: String(ADMIN),
      BRIDGE_API_ADDR: '127.0.0.1:0',
      BRIDGE_API_TOKENS: `ide=${IDE_TOKEN}`,
      BRIDGE_API_NO_CHAT_MODE: 'bypass',
    },
    { dataFiles: { 'tool-policy.json': JSON.stringify(POLICY) } },
  );
}, 60_000);
afterAll(() => world?.stop());

let nextChat = -4700;
/** A new group the three are members of. */
const newGroup = () => {
  const chat = nextChat--;
  for (const person of [OWNER, ADMIN, MEMBER]) world.telegram.setStanding(chat, person, { status: 'member' });
  return chat;
};
const say = (chat: number, text: string, userId: number) =>
  world.telegram.sendText({ chatId: chat, userId, text, firstName: NAMES[userId]!, chatType: 'group' });
const waitText = (chat: number, pattern: RegExp) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((message) => pattern.test(shownText(message))), 30_000);
/** The chat's question about `git push`, as it shows now. */
const question = (chat: number) =>
  world.telegram.botMessages(chat).find((m) => /asks to use Bash|^claude: Bash/.test(shownText(m)) && /git push/.test(shownText(m)));
const openQuestion = (chat: number) => world.telegram.waitFor(() => (question(chat)?.buttons.length ? question(chat) : undefined), 30_000);
const buttonTexts = (message: { buttons: readonly unknown[] }) => (message.buttons as { text: string }[]).map((b) => b.text);
/** Presses a button of the chat's question; resolves with what the bot answered the press. */
async function press(chat: number, text: string, userId: number): Promise<{ text: string | undefined; showAlert: boolean }> {
  const asked = await openQuestion(chat);
  const data = (asked.buttons as { text: string; callback_data: string }[]).find((b) => b.text === text)!.callback_data;
  const query = world.telegram.pressButton({ chatId: chat, messageId: asked.messageId, data, userId, firstName: NAMES[userId]! });
  return world.telegram.waitFor(() => world.telegram.callbackAnswers.find((answer) => answer.callbackQueryId === query.id), 30_000);
}
const audit = async () =>
  (await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>);

describe('a tool call the tool policy needs two people for', () => {
  it('is asked in bypass mode; the count and who shows; the starter cannot be the second; another person’s Allow runs it; audited', async () => {
    const chat = newGroup();
    say(chat, 'bash:git+push+origin+main say:pushed', MEMBER);
    const asked = await openQuestion(chat);
    expect(shownText(asked)).toContain("Needs 2 people's Allow (tool policy: Bash(git push*)); whoever started this work cannot be the last of them.");
    expect(buttonTexts(asked)).toEqual(['✅ Allow', '⛔ Deny']);

    expect((await press(chat, '✅ Allow', ADMIN)).text).toBe('✅ 1 of 2 approved: Bob: another person must approve it too');
    await world.telegram.waitFor(() => /1 of 2 approved: Bob/.test(shownText(question(chat)!)), 30_000);
    expect(buttonTexts(question(chat)!)).toEqual(['✅ Allow', '⛔ Deny']);

    // Mia typed the turn: her Allow would be the second.
    const refused = await press(chat, '✅ Allow', MEMBER);
    expect(refused).toMatchObject({ showAlert: true, text: expect.stringMatching(/^⛔ You started this work, so your Allow cannot be the last/) });
    expect(question(chat)!.buttons.length).toBeGreaterThan(0);
    expect((await press(chat, '✅ Allow', ADMIN)).text).toBe("You approved this already: it needs 1 more person's Allow.");

    expect((await press(chat, '✅ Allow', OWNER)).text).toBe('✅ Allowed: 2 of 2 approved');
    const answered = await waitText(chat, /^pushed/);
    expect(shownText(answered)).toContain('ran: git push origin main');
    expect(shownText(question(chat)!)).toContain('✅ Allowed by Bob, Ada (2 of 2, rule Bash(git push*))');

    await expect
      .poll(async () => (await audit()).filter((e) => e.chat?.endsWith(String(chat)) && e.tool === 'Bash').map((e) => `${e.event} ${e.decision} ${e.by}`))
      .toEqual([
        'tool_approval approved 1 of 2 Bob',
        'tool_approval refused: started the work (1 of 2) Mia',
        'tool_approval approved 2 of 2 Ada',
        'tool_approved allow Bob, Ada',
      ]);
  });

  it("counts a schedule's maker as the one who started its work: they cannot be the last to approve it", async () => {
    const chat = newGroup();
    say(chat, '/at in 1s bash:git+push+origin+main say:scheduled-push', ADMIN);
    await openQuestion(chat);
    expect((await press(chat, '✅ Allow', MEMBER)).text).toBe('✅ 1 of 2 approved: Mia: another person must approve it too');
    expect(await press(chat, '✅ Allow', ADMIN)).toMatchObject({ showAlert: true, text: expect.stringMatching(/^⛔ You started this work/) });
    expect((await press(chat, '✅ Allow', OWNER)).text).toBe('✅ Allowed: 2 of 2 approved');
    await waitText(chat, /^scheduled-push/);
  });

  it('ends on a Deny by anyone; what no rule covers runs unasked in bypass', async () => {
    const chat = newGroup();
    say(chat, 'bash:git+push say:tried', OWNER);
    expect((await press(chat, '✅ Allow', OWNER)).text).toBe('✅ 1 of 2 approved: Ada: another person must approve it too');
    expect((await press(chat, '⛔ Deny', MEMBER)).text).toBe('⛔ Denied');
    expect(shownText(await waitText(chat, /^tried/))).toContain('not run: Denied by Mia from the chat.');

    say(chat, 'bash:git+status say:unasked', OWNER);
    expect(shownText(await waitText(chat, /^unasked/))).toContain('ran: git status');
    expect(world.telegram.botMessages(chat).filter((m) => /^(🔐 claude asks to use Bash|claude: Bash)/.test(shownText(m)))).toHaveLength(1);
  });

  it('binds a push however it is written: through wrappers, a path and git’s own options it is asked of two people all the same', async () => {
    const chat = newGroup();
    say(chat, 'bash:env+GIT_SSH=x+timeout+9+/usr/bin/git+-C+.+push say:rewritten', MEMBER);
    const asked = await world.telegram.waitFor(
      () => world.telegram.botMessages(chat).find((m) => /asks to use Bash|^claude: Bash/.test(shownText(m)) && allowButtonOf(m)),
      30_000,
    );
    expect(shownText(asked)).toContain("Needs 2 people's Allow (tool policy: Bash(git push*))");
    const data = (asked.buttons as { text: string; callback_data: string }[]).find((b) => b.text === '⛔ Deny')!.callback_data;
    world.telegram.pressButton({ chatId: chat, messageId: asked.messageId, data, userId: OWNER, firstName: NAMES[OWNER]! });
    expect(shownText(await waitText(chat, /^rewritten/))).toContain('not run: Denied by Ada from the chat.');
  });

  it('binds a run spawned in bypass mode: asked of two people; a run nothing covers runs unasked; droid is refused at spawn', async () => {
    const chat = newGroup();
    say(chat, '/spawn --label Pusher "bash:git+push+origin+main say:run-pushed"', MEMBER);
    const asked = await openQuestion(chat);
    expect(shownText(asked)).toMatch(/^🔐 #1 Pusher asks to use Bash/);
    expect(buttonTexts(asked)).toEqual(['✅ Allow', '⛔ Deny']);
    expect((await press(chat, '✅ Allow', MEMBER)).text).toBe('✅ 1 of 2 approved: Mia: another person must approve it too');
    expect((await press(chat, '✅ Allow', ADMIN)).text).toBe('✅ Allowed: 2 of 2 approved');
    expect(shownText(await waitText(chat, /^✅ #1 Pusher/))).toContain('ran: git push origin main');

    say(chat, '/spawn --label Looker "bash:git+status say:looked"', MEMBER);
    expect(shownText(await waitText(chat, /^✅ #2 Looker/))).toContain('ran: git status');
    expect(world.telegram.botMessages(chat).filter((m) => /asks to use/.test(shownText(m)))).toHaveLength(0);

    say(chat, '/spawn --cli droid "say:never"', MEMBER);
    expect(shownText(await waitText(chat, /droid cannot ask the bridge/))).toContain(
      "droid cannot ask the bridge before each tool call, and the tool policy (tool-policy.json) needs 2 people's Allow for Bash(git push*), so the run was not started",
    );
  });

  it("asks two people for every call of an agent a rule names, in a run of its own; a session's Task tool is not offered that agent", async () => {
    for (const slug of ['deployer', 'reviewer']) {
      await mkdir(join(world.dataDir, 'agents', slug), { recursive: true });
      await writeFile(join(world.dataDir, 'agents', slug, 'agent.json'), JSON.stringify({ description: `The ${slug}` }));
      await writeFile(join(world.dataDir, 'agents', slug, 'prompt.md'), `You are the ${slug}.`);
    }
    const chat = newGroup();
    say(chat, 'say:delegating', MEMBER);
    await waitText(chat, /^delegating/);
    const turn = (await world.cli.invocations()).find((call) => call.prompt === 'say:delegating')!;
    expect(Object.keys(turn.agents ?? {})).toEqual(['reviewer']);

    say(chat, '/spawn --agent deployer "bash:ls say:deployed"', MEMBER);
    const asked = await world.telegram.waitFor(
      () => world.telegram.botMessages(chat).find((m) => /^🔐 #1 \S+ asks to use Bash/.test(shownText(m)) && m.buttons.length),
      30_000,
    );
    expect(shownText(asked)).toContain("Needs 2 people's Allow (tool policy: agent deployer)");
    for (const [person, name] of [
      [OWNER, 'Ada'],
      [ADMIN, 'Bob'],
    ] as const) {
      const data = (asked.buttons as { text: string; callback_data: string }[]).find((b) => b.text === '✅ Allow')!.callback_data;
      world.telegram.pressButton({ chatId: chat, messageId: asked.messageId, data, userId: person, firstName: name });
    }
    expect(shownText(await waitText(chat, /^✅ #1 /))).toContain('ran: ls');
  });

  it('refuses a turn on droid, which cannot ask, with a sentence naming the rule', async () => {
    const chat = newGroup();
    say(chat, '/cli droid', ADMIN);
    await waitText(chat, /^🔀 Switched to droid/);
    say(chat, 'say:never', ADMIN);
    const refused = await waitText(chat, /^❌ droid cannot ask the bridge before each tool call/);
    expect(shownText(refused)).toContain(
      "droid cannot ask the bridge before each tool call, and the tool policy (tool-policy.json) needs 2 people's Allow for Bash(git push*), so this turn was not run on droid.",
    );
    expect((await world.cli.invocations()).some((call) => call.prompt === 'say:never')).toBe(false);
    say(chat, '/permissions', MEMBER);
    const mode = shownText(await waitText(chat, /^🔐 Permissions: bypass/));
    // The agent rule binds that agent's runs, not the chat's own turns.
    expect(mode).toContain("The tool policy needs several people's Allow, in every mode, for Bash(git push*) (2 people).");
    // The way out names the CLIs that ask before each call, as their adapters say.
    expect(mode).toContain(
      'droid cannot ask the bridge before each tool call, so its turns are refused here: /cli claude or /cli codex or /cli copilot or /cli gemini or /cli opencode or /cli qwen, or /permissions safe, lets the chat work.',
    );
    // In safe mode it only reads: no rule can be met, and droid is run (none is installed here: its absence is the answer).
    say(chat, '/permissions safe', ADMIN);
    await waitText(chat, /^🔐 Permissions: safe/);
    const reading = say(chat, 'say:reading', ADMIN);
    const answer = await world.telegram.waitFor(
      () => world.telegram.botMessages(chat).find((m) => m.replyToMessageId === reading.message_id && /^❌ droid/.test(shownText(m))),
      30_000,
    );
    expect(shownText(answer)).not.toContain('cannot ask the bridge');
  });
});

describe('a run of no chat', () => {
  it('is refused work a rule covers: it has nobody to ask', async () => {
    await world.bridge.waitForLog(/SubagentService listening on/);
    const ide = apiClient(apiAddressOf(world), IDE_TOKEN);
    try {
      await expect(ide.call('SpawnSubagent', { prompt: 'say:never' })).rejects.toMatchObject({
        details: "The tool policy (tool-policy.json) needs 2 people's Allow for Bash(git push*), and a run of no chat has nobody to ask: start it in a chat.",
      });
    } finally {
      ide.close();
    }
  });
});

describe('a tool-policy.json that is not valid', () => {
  it('stops the start with one line naming the file and the field, exit 78', async () => {
    const data = await tempDir('bridge-data-');
    try {
      const file = join(data.path, 'tool-policy.json');
      await writeFile(file, JSON.stringify({ rules: [{ tool: 'Bash(git push*)', approvals: 'two' }] }));
      const bridge = startBridgeProcess({
        BRIDGE_DATA_DIR: data.path,
        TELEGRAM_BOT_TOKEN: '123:abc-0000000000000000000000000000000',
        BRIDGE_ALLOWED_USERS: String(OWNER),
      });
      const exit = await bridge.exited;
      expect(exit.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
      expect(bridge.stderr().trim()).toBe(`jsonl-bridge: ${file}: field "rules.0.approvals": expected number, received string`);
    } finally {
      await data.remove();
    }
  });
});
