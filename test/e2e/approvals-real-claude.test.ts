import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/kernel/audit/audit-log.ts';
import type { CliEnv } from '../support/cli-env.ts';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, STRANGER, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// The real claude binary asks the bridge for permission through --permission-prompt-tool;
// the question arrives in the fake Telegram chat and is answered with a button press.
let real: RealCliWorld;
let cliEnv: CliEnv;
let world: TelegramWorld;
const CHAT = -900;

/** Subagents create the file their task names (a write Claude Code asks permission for). */
function script(request: ModelRequest): Reply {
  if (request.toolResults.length) return { text: `tool said: ${request.toolResults[0]!.content}` };
  const file = /create (\S+)/.exec(request.lastUserText)?.[1];
  if (file) return { toolCalls: [{ name: 'Bash', input: { command: `touch ${file}`, description: 'Create the file' } }] };
  return { text: 'nothing to do' };
}

beforeAll(async () => {
  real = await startRealCliWorld('claude', script);
  ({ cliEnv, world } = real);
});
afterAll(() => real.stop());

const { say, waitText: waitMessage } = ownerIn(() => world, CHAT, 40_000);
const callbackData = (button: unknown) => (button as { callback_data: string }).callback_data;
const audit = async (): Promise<AuditEntry[]> =>
  (await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('approvals from the chat with the real claude', () => {
  it('asks before a write; only allowed users may answer; Allow lets it run', async () => {
    say('/spawn --label Writer --ask "create allowed.txt"');
    const question = await waitMessage(/^🔐 #1 Writer asks to use Bash/);
    expect(question.text).toContain('touch allowed.txt');
    const [allow] = question.buttons;
    world.telegram.pressButton({ chatId: CHAT, messageId: question.messageId, data: callbackData(allow), userId: STRANGER });
    await world.telegram.waitFor(() => world.telegram.callbackAnswers.find((a) => a.showAlert && a.text?.includes('Not allowed')));
    world.telegram.pressButton({ chatId: CHAT, messageId: question.messageId, data: callbackData(allow), userId: OWNER });
    const done = await waitMessage(/^✅ #1 Writer/);
    expect(done.text).toContain('tool said');
    expect(existsSync(join(cliEnv.workdir, 'allowed.txt'))).toBe(true);
    expect(world.telegram.message(CHAT, question.messageId)!.text).toMatch(/✅ Allowed by Ada$/);
    expect((await audit()).filter((e) => e.runId && e.event === 'tool_approved')).toEqual([
      expect.objectContaining({ tool: 'Bash', by: 'Ada', decision: 'allow' }),
    ]);
  });

  it('Deny stops the write, and the agent is told', async () => {
    say('/spawn --label Refused --ask "create denied.txt"');
    const question = await waitMessage(/^🔐 #2 Refused asks to use Bash/);
    world.telegram.pressButton({ chatId: CHAT, messageId: question.messageId, data: callbackData(question.buttons[1]), userId: OWNER });
    const done = await waitMessage(/^✅ #2 Refused/);
    expect(done.text).toContain('Denied by Ada from the chat');
    expect(existsSync(join(cliEnv.workdir, 'denied.txt'))).toBe(false);
  });

  it('auto-approves an allowed tool without asking, and /subagents info counts it', async () => {
    say('/spawn --label Auto --allow Bash --auto-approve "create auto.txt"');
    await waitMessage(/^✅ #3 Auto/);
    expect(existsSync(join(cliEnv.workdir, 'auto.txt'))).toBe(true);
    expect(world.telegram.botMessages(CHAT).some((m) => /#3 Auto asks/.test(m.text ?? ''))).toBe(false);
    say('/subagents info 3');
    const info = await waitMessage(/^#3 Auto\n/);
    expect(info.text).toMatch(/^auditCounts\.tool_auto_approved: 1$/m);
    expect(info.text).toMatch(/^auditCounts\.spawn: 1$/m);
  });

  it('refuses auto-approval without an allowlist', async () => {
    say('/spawn --auto-approve "create never.txt"');
    await waitMessage(/INVALID_PERMISSION_CONFIG: auto-approval requires a non-empty list of allowed tools/);
  });
});
