import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellToolCall, type MockModel, type ModelRequest } from '../support/mock-model/index.ts';
import { processesUnder } from '../support/process-tree.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, type TelegramWorld } from '../support/telegram-world.ts';

// A chat's live session with the real claude: the process stays up between turns, a message
// sent while it works is taken into the running turn, Stop ends the turn through the CLI's
// interrupt and keeps its context, and the agent's questions and plans are answered with
// buttons over the stdio control channel.
let real: RealCliWorld;
let mock: MockModel;
let world: TelegramWorld;
/** A private chat: its send budget does not slow a dozen messages down. */
const CHAT = OWNER;

beforeAll(async () => {
  real = await startRealCliWorld('claude');
  ({ mock, world } = real);
});
afterAll(() => real.stop());

const say = (text: string) => world.telegram.sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'private', firstName: 'Ada' });
const waitText = (pattern: RegExp, ms = 40_000) => world.telegram.waitFor(() => world.telegram.botMessages(CHAT).find((m) => pattern.test(m.text ?? '')), ms);
const mentions = (request: ModelRequest | undefined, word: string) => JSON.stringify(request?.messages ?? '').includes(word);
/** Whether the newest user message of a request carries claude's plan-mode reminder. */
const planReminder = (request: ModelRequest) => JSON.stringify(request.messages.at(-1)).includes('Plan mode is active');
const modelAsked = (count: number) => expect.poll(() => mock.modelRequests.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
const press = (message: { messageId: number; buttons: readonly unknown[] }, label: RegExp) => {
  const button = (message.buttons as { text: string; callback_data: string }[]).find((b) => label.test(b.text));
  if (!button) throw new Error(`no button ${label} among ${JSON.stringify(message.buttons)}`);
  world.telegram.pressButton({ chatId: CHAT, messageId: message.messageId, data: button.callback_data, userId: OWNER });
};
/** The pids of the live claude processes under the bridge (stream-json input marks them). */
const liveClaudes = () =>
  processesUnder(world.bridge.pid)
    .filter((row) => row.args.includes('--input-format'))
    .map((row) => row.pid);

describe('a live session of the real claude', () => {
  it('takes a message sent while it works into the running turn: the model hears it with the tool result', async () => {
    const go = join(real.cliEnv.workdir, 'go-steer');
    mock.reset((request) => {
      if (!request.toolResults.length) return { toolCalls: [shellToolCall('claude', `while [ ! -f ${go} ]; do sleep 0.1; done; echo waited`)] };
      return { text: mentions(request, 'BANANA') ? 'heard: BANANA' : 'heard nothing' };
    });
    say('wait for the go file');
    await modelAsked(1);
    say('also mention BANANA');
    await waitText(/➕ added: also mention BANANA/);
    await writeFile(go, '');
    await waitText(/^heard: BANANA/);
    // One turn: the steer reached the model beside the tool's result, not as a turn of its own.
    expect(mock.modelRequests).toHaveLength(2);
    expect(mentions(mock.modelRequests[1], 'BANANA')).toBe(true);
  });

  it('answers a message that reached it as its turn ended in a turn of its own, in reply to it; the turn keeps its own answer', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    mock.reset(async (request) => {
      if (mentions(request, 'KIWI')) return { text: 'second answer: KIWI' };
      await released; // the turn's answer waits until the message is in the CLI's input
      return { text: 'first answer' };
    });
    const first = say('say something');
    await modelAsked(1);
    const late = say('now say KIWI');
    await world.telegram.waitFor(() => world.telegram.message(CHAT, late.message_id)!.botReactions.includes('👀') || undefined, 30_000);
    release();
    const own = await waitText(/^first answer/);
    const next = await waitText(/^second answer: KIWI/);
    expect([own.replyToMessageId, next.replyToMessageId]).toEqual([first.message_id, late.message_id]);
    // claude ran the message as the turn after, continuing the conversation.
    expect(mock.modelRequests).toHaveLength(2);
    expect(mentions(mock.modelRequests[1], 'first answer')).toBe(true);
  });

  it('keeps the process between turns: the next message starts no CLI', async () => {
    mock.reset(() => ({ text: 'still here' }));
    const before = liveClaudes();
    expect(before).toHaveLength(1);
    say('are you there?');
    await waitText(/^still here/);
    expect(liveClaudes()).toEqual(before);
  });

  it('Stop ends the turn and keeps it: the next message carries the stopped turn', async () => {
    mock.reset((request) => {
      if (mentions(request, 'PINEAPPLE')) return { text: mentions(request, 'LONGJOB') ? 'I remember LONGJOB' : 'I forgot' };
      return { toolCalls: [shellToolCall('claude', 'sleep 600')] };
    });
    const before = liveClaudes();
    say('start LONGJOB');
    await modelAsked(1);
    await waitText(/sleep 600/);
    say('/stop');
    await waitText(/^⏹ Stopped the turn; the session goes on with your next message\./);
    say('what was I doing? PINEAPPLE');
    await waitText(/^I remember LONGJOB/);
    expect(liveClaudes()).toEqual(before);
  });

  it("answers the agent's AskUserQuestion with the button pressed", async () => {
    mock.reset((request) => {
      const answered = request.toolResults[0];
      if (answered) return { text: `you chose: ${answered.content}` };
      return {
        toolCalls: [
          {
            name: 'AskUserQuestion',
            input: {
              questions: [
                {
                  question: 'Which branch should I use?',
                  header: 'Branch',
                  multiSelect: false,
                  options: [
                    { label: 'main', description: 'the default branch' },
                    { label: 'release', description: 'the release branch' },
                  ],
                },
              ],
            },
          },
        ],
      };
    });
    say('fix the bug');
    const question = await waitText(/^❓ Branch/);
    expect(question.text).toContain('Which branch should I use?');
    press(question, /^release$/);
    const answer = await waitText(/^you chose:/);
    expect(answer.text).toContain('release');
  });

  it('/plan: the plan arrives with Approve, and Approve lets the agent go on in the chat’s mode', async () => {
    mock.reset((request) => {
      if (request.toolResults.length) return { text: request.toolResults[0]!.isError ? 'plan refused' : 'plan approved, working' };
      return { toolCalls: [{ name: 'ExitPlanMode', input: { plan: '1. read the code\n2. fix the bug' } }] };
    });
    say('/plan');
    await waitText(/^📋 Plan mode: your next message gets a plan first/);
    say('fix the parser');
    const plan = await waitText(/^📋 Plan\n/);
    expect(plan.text).toContain('2. fix the bug');
    press(plan, /Approve/);
    await waitText(/^plan approved, working/);
    // The turn ran in plan mode: the model was offered plan mode's exit.
    expect(mock.modelRequests[0]!.toolNames).toContain('ExitPlanMode');
    expect(planReminder(mock.modelRequests[0]!)).toBe(true);
    // After Approve the session is out of plan mode: the next turn works in the chat's mode.
    mock.reset(() => ({ text: 'next step done' }));
    say('go on');
    await waitText(/^next step done/);
    expect(planReminder(mock.modelRequests[0]!)).toBe(false);
  });
});
