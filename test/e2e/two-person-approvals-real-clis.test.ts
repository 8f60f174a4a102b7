import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamedFile, shellToolCall, type Script } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER } from '../support/telegram-world.ts';

// The tool policy binds the real CLIs in bypass mode: a live claude asks the bridge about each
// call on its control channel, and codex's app server is opened asking (`untrusted`) while a
// rule is present; the bridge runs what no rule covers, and a call a rule needs two people for
// waits for two people of the group.
const BOB = 222;

/** "create X": a `touch X` through codex's shell tool; then what the tool said. */
const createWithCodexShell: Script = (request) => {
  if (request.toolResults.length) return { text: `tool said: ${request.toolResults.at(-1)!.content}` };
  const file = /create (\S+)/.exec(request.lastUserText)?.[1];
  return file ? { toolCalls: [shellToolCall('codex', `touch ${file}`)] } : { text: 'nothing to do' };
};

describe.each([
  { cli: 'claude' as const, script: createNamedFile, asks: /^🔐 claude asks to use Bash/, group: -4900 },
  { cli: 'codex' as const, script: createWithCodexShell, asks: /^🔐 codex asks to use shell/, group: -4950 },
])('the real $cli in bypass mode, under a rule needing two people', ({ cli, script, asks, group }) => {
  let real: RealCliWorld;

  beforeAll(async () => {
    real = await startRealCliWorld(cli, script);
    Object.assign(real.world.env, { BRIDGE_PERMISSION_MODE: 'bypass', BRIDGE_ALLOWED_USERS: `${OWNER},${BOB}` });
    await writeFile(join(real.world.dataDir, 'tool-policy.json'), JSON.stringify({ rules: [{ tool: 'Bash(touch guarded*)', approvals: 2 }] }));
    await real.world.restart();
    for (const person of [OWNER, BOB]) real.world.telegram.setStanding(group, person, { status: 'member' });
  }, 120_000);
  afterAll(() => real?.stop());

  const telegram = () => real.world.telegram;
  const say = (text: string) => telegram().sendText({ chatId: group, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
  const find = (pattern: RegExp) =>
    telegram()
      .botMessages(group)
      .find((m) => pattern.test(m.text ?? ''));
  const wait = (pattern: RegExp) => telegram().waitFor(() => find(pattern), 60_000);
  const created = (file: string) => existsSync(join(real.cliEnv.workdir, file));
  async function press(message: { messageId: number; buttons: readonly unknown[] }, userId: number, firstName: string) {
    const allow = (message.buttons as { text: string; callback_data: string }[]).find((b) => b.text === '✅ Allow')!;
    const query = telegram().pressButton({ chatId: group, messageId: message.messageId, data: allow.callback_data, userId, firstName });
    return telegram().waitFor(() => telegram().callbackAnswers.find((answer) => answer.callbackQueryId === query.id), 30_000);
  }

  it('runs what no rule covers unasked, and asks two people for what one covers', async () => {
    say('create free.txt');
    await wait(/^tool said/);
    expect(created('free.txt')).toBe(true);
    expect(find(/asks to use/)).toBeUndefined();

    say('create guarded.txt');
    const question = await wait(asks);
    expect(question.text).toContain('touch guarded.txt');
    expect(question.text).toContain("Needs 2 people's Allow (tool policy: Bash(touch guarded*))");
    expect((await press(question, OWNER, 'Ada')).text).toBe('✅ 1 of 2 approved: Ada: another person must approve it too');
    expect(created('guarded.txt')).toBe(false);
    expect((await press(question, BOB, 'Bob')).text).toBe('✅ Allowed: 2 of 2 approved');
    await telegram().waitFor(() => (created('guarded.txt') ? true : undefined), 60_000);
  });
});
