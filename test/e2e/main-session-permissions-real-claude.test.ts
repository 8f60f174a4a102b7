import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/kernel/audit/audit-log.ts';
import { createNamedFile } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER } from '../support/telegram-world.ts';

// A chat's main session in `ask` mode, with the real claude binary: its writes are asked in
// the chat, answered with Allow, "Allow for this session" and Deny; in `safe` the bridge
// refuses them itself (a live claude asks it on its stdio control channel).
let real: RealCliWorld;
/** A private chat: a dozen turns within a minute would be more than a group's 20 messages a minute. */
const CHAT = OWNER;

beforeAll(async () => {
  real = await startRealCliWorld('claude', createNamedFile);
  real.world.env.BRIDGE_PERMISSION_MODE = 'ask';
  await real.world.restart();
});
afterAll(() => real.stop());

const telegram = () => real.world.telegram;
const say = (text: string) => telegram().sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'private', firstName: 'Ada' });
const messages = (pattern: RegExp) =>
  telegram()
    .botMessages(CHAT)
    .filter((m) => pattern.test(m.text ?? ''));
const waitMessage = (pattern: RegExp) => telegram().waitFor(() => messages(pattern)[0], 40_000);
/** The agent's answer to a message (it replies to it, in its progress message's place when quick). */
const answerTo = (asked: { message_id: number }) =>
  telegram().waitFor(() => messages(/^tool said/).find((m) => m.replyToMessageId === asked.message_id), 40_000);
/** Presses a question's button: 0 Allow, 1 Deny, 2 Allow for this session. */
const press = (message: { messageId: number; buttons: readonly unknown[] }, index: number) =>
  telegram().pressButton({
    chatId: CHAT,
    messageId: message.messageId,
    data: (message.buttons[index] as { callback_data: string }).callback_data,
    userId: OWNER,
  });
/** Questions asked so far, open (🔐 … asks) or answered (edited to `claude: Bash … verdict`). */
const questions = () => messages(/^🔐 claude asks|^claude: /).length;
const created = (file: string) => existsSync(join(real.cliEnv.workdir, file));
const audit = async (): Promise<AuditEntry[]> =>
  (await readFile(join(real.world.dataDir, 'audit.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('the main session asks the chat, with the real claude', () => {
  it('Allow: the progress message shows the wait, and the write runs', async () => {
    const asked = say('create allowed.txt');
    const question = await waitMessage(/^🔐 claude asks to use Bash/);
    expect(question.text).toContain('touch allowed.txt');
    expect(question.buttons.map((b) => (b as { text: string }).text)).toEqual(['✅ Allow', '⛔ Deny', '✅ Allow Bash for this session']);
    await waitMessage(/^🔐 claude · waiting for your answer/);
    press(question, 0);
    await answerTo(asked);
    expect(created('allowed.txt')).toBe(true);
    expect(telegram().message(CHAT, question.messageId)!.text).toMatch(/✅ Allowed by Ada$/);
  });

  it('"Allow Bash for this session": the next Bash call is not asked', async () => {
    const before = questions();
    const one = say('create session-one.txt');
    const question = await waitMessage(/^🔐 claude asks to use Bash[^]*session-one/);
    press(question, 2);
    await answerTo(one);
    expect(created('session-one.txt')).toBe(true);
    await answerTo(say('create session-two.txt'));
    expect(created('session-two.txt')).toBe(true);
    expect(questions()).toBe(before + 1);
    expect(telegram().message(CHAT, question.messageId)!.text).toMatch(/✅ Allowed by Ada for this session$/);
    expect((await audit()).filter((e) => e.event === 'tool_auto_approved' && e.tool === 'Bash')).toEqual([
      expect.objectContaining({ chat: `telegram:${CHAT}`, by: 'session', detail: `allowed for this session (turns typed by ${OWNER})` }),
    ]);
  });

  it('Deny: nothing is written and the agent is told; a fresh session asks again', async () => {
    say('/new');
    await waitMessage(/^🆕 Fresh claude session/);
    const asked = say('create denied.txt');
    const question = await waitMessage(/^🔐 claude asks to use Bash[^]*denied\.txt/);
    press(question, 1);
    const told = await answerTo(asked);
    expect(told.text).toContain('Denied by Ada from the chat');
    expect(created('denied.txt')).toBe(false);
  });

  it('safe: the bridge refuses the write on the control channel, without asking', async () => {
    say('/permissions safe');
    await waitMessage(/^🔐 Permissions: safe/);
    const asked = questions();
    say('create refused.txt');
    await waitMessage(/^tool said: This chat only reads \(\/permissions safe\), so Bash was refused\./);
    expect(created('refused.txt')).toBe(false);
    expect(questions()).toBe(asked);
  });
});
