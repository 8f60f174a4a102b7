import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-env.ts';
import { echoScript, shellToolCall, toolThenText, type MockModel } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// Everything real but the two servers: the bridge process, grammY over HTTP, and the real
// claude binary, against the fake Bot API and the mock model API.
let real: RealCliWorld;
let mock: MockModel;
let world: TelegramWorld;

beforeAll(async () => {
  real = await startRealCliWorld('claude');
  ({ mock, world } = real);
});
afterAll(() => real.stop());

const CHAT = -600;
const { say, waitText } = ownerIn(() => world, CHAT, 30_000);

describe('the real claude binary behind the Telegram bridge', () => {
  it('answers a turn with a tool call: the answer is formatted, its stats count the step', async () => {
    mock.reset(toolThenText({ call: shellToolCall('claude', 'echo hello'), finalText: (results) => `The command printed **${results[0]!.content.trim()}**.` }));
    say('run echo hello');
    const answer = await waitText(/^The command printed hello\.$/);
    expect(answer.entities).toContainEqual(expect.objectContaining({ type: 'bold' }));
    // The stats close the answer when it took the progress message's place (a turn under 10 s),
    // else they close the progress message, which the answer then follows (on a loaded machine).
    const stats = /(\n\n✅ \d:\d\d · |\n)1 step · /;
    expect(world.telegram.botMessages(CHAT).filter((message) => stats.test(message.text ?? ''))).toHaveLength(1);
  });

  it('runs a /spawn through claude and announces its result', async () => {
    mock.reset((request) => ({ text: request.system.includes('You are a subagent') ? 'subagent report: all good' : 'main agent' }));
    say('/spawn --label Check "check everything"');
    const done = await waitText(/^✅ #1 Check/);
    expect(done.text).toContain('subagent report: all good');
    const request = mock.modelRequests.find((r) => r.lastUserText.includes('check everything'))!;
    expect(request.system).toContain('You are a subagent');
  });

  it('/resume lists a session started in a terminal in the same directory, and a button continues it', async () => {
    mock.reset(echoScript);
    const terminal = await runCli(real.cliEnv, [
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      '-p',
      '--',
      'started in a terminal',
    ]);
    expect(terminal.exitCode, terminal.stderr).toBe(0);
    const sessionId = terminal.events.find((e) => e.type === 'result')!.session_id as string;
    say('/resume');
    const list = await waitText(/^Sessions, newest first\n/);
    expect(list.text).toMatch(/1\. (just now|\d+ s ago) · 1 turn · claude · "started in a terminal"/);
    const button = list.buttons.find((b) => (b as unknown as { callback_data: string }).callback_data === `rs:${sessionId}`)!;
    world.telegram.pressButton({ chatId: CHAT, messageId: list.messageId, data: `rs:${sessionId}`, userId: OWNER });
    expect(button).toBeTruthy();
    await waitText(/^▶ The next message continues the claude session "started in a terminal"/);
    say('and now from the chat');
    await waitText(/^You said: and now from the chat$/);
    // the turn continued the terminal's conversation: its history went to the model
    expect(JSON.stringify(mock.modelRequests.at(-1)!.messages)).toContain('started in a terminal');
  });
});
