import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockModel, ModelRequest } from '../support/mock-model/index.ts';
import { processesUnder } from '../support/process-tree.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, shownText, type TelegramWorld } from '../support/telegram-world.ts';

// The real Gemini CLI as a chat's agent over ACP (`gemini --acp`), against the mock model's
// Gemini API: a turn, a shell command it asks the chat about and runs once allowed, and Stop
// as `session/cancel`, the session going on in the same process.
let real: RealCliWorld;
let mock: MockModel;
let world: TelegramWorld;
const CHAT = OWNER;

beforeAll(async () => {
  real = await startRealCliWorld('gemini', undefined, { BRIDGE_PERMISSION_MODE: 'ask' });
  ({ mock, world } = real);
}, 120_000);
afterAll(() => real?.stop());

const say = (text: string) => world.telegram.sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'private', firstName: 'Ada' });
const waitText = (pattern: RegExp, ms = 60_000) => world.telegram.waitFor(() => world.telegram.botMessages(CHAT).find((m) => pattern.test(shownText(m))), ms);
const mentions = (request: ModelRequest | undefined, word: string) => JSON.stringify(request?.messages ?? '').includes(word);
/** The Gemini CLI processes under the bridge: its launcher's, not the children it starts. */
function agents(): number[] {
  const found = processesUnder(world.bridge.pid).filter((row) => / --acp\b/.test(row.args));
  return found.filter((row) => !found.some((parent) => parent.pid === row.ppid)).map((row) => row.pid);
}
const asked = (word: string) => mock.modelRequests.filter((request) => request.lastUserText.includes(word));

describe('the real Gemini CLI over ACP', () => {
  it('answers a turn', async () => {
    mock.reset((request) => ({ text: request.lastUserText.includes('PING') ? 'PONG from gemini' : '{"next_speaker": "user", "reasoning": "done"}' }));
    say('PING');
    await waitText(/^PONG from gemini/);
  }, 90_000);

  it('asks the chat before a shell command, and runs it once allowed', async () => {
    mock.reset((request) => {
      if (!mentions(request, 'MAKEFILE')) return { text: '{"next_speaker": "user", "reasoning": "done"}' };
      if (request.toolResults.length) return { text: `made it: ${request.toolResults.at(-1)!.content.includes('made') ? 'yes' : 'no'}` };
      return { toolCalls: [{ name: 'run_shell_command', input: { command: 'echo made > made.txt && cat made.txt', description: 'make a file' } }] };
    });
    say('MAKEFILE please');
    const question = await world.telegram.waitFor(
      () => world.telegram.botMessages(CHAT).find((m) => /"command": "echo made > made\.txt/.test(m.text ?? '') && m.buttons.length > 0),
      60_000,
    );
    const allow = (question.buttons as { text: string; callback_data: string }[]).find((b) => /Allow$/.test(b.text))!;
    world.telegram.pressButton({ chatId: CHAT, messageId: question.messageId, data: allow.callback_data, userId: OWNER });
    await waitText(/^made it: yes/);
  }, 90_000);

  it('Stop cancels the turn and keeps the session: the next message is answered in it', async () => {
    mock.reset((request) => {
      if (request.lastUserText.includes('LONGJOB')) return { text: 'never', delayMs: Infinity };
      if (request.lastUserText.includes('AFTER')) return { text: mentions(request, 'PONG') ? 'same session' : 'another session' };
      return { text: '{"next_speaker": "user", "reasoning": "done"}' };
    });
    const before = agents();
    expect(before).toHaveLength(1);
    say('LONGJOB');
    await expect.poll(() => asked('LONGJOB').length, { timeout: 60_000 }).toBeGreaterThan(0);
    say('/stop');
    await waitText(/^⏹ Stopped the turn; the session goes on with your next message\./);
    say('AFTER the stop');
    await waitText(/^same session/);
    expect(agents()).toEqual(before);
  }, 120_000);
});
