import { describe, expect, it } from 'vitest';
import { AgentQuestions } from '../../src/chat/agent/agent-questions.ts';
import { silentLog } from '../support/silent-log.ts';
import { HeldOutbound, RecordingOutbound } from '../support/recording-outbound.ts';

// A question or plan nobody answers does not hold the chat's turn for ever: after the approval
// timeout the agent is told and goes on (a question) or stops to wait (a plan).
const CHAT = { transport: 'telegram', chat: '-5' };
const QUESTION = { questions: [{ question: 'Which branch?', header: 'Branch', options: [{ label: 'main' }, { label: 'release' }] }] };

const OWNER = { id: '1', name: 'Ada' };

/** Where the question (or plan), the first message a HeldOutbound sends, stands in its chat's sequence of messages. */
const SHOWN = 1;

describe('AgentQuestions', () => {
  it('a question nobody answers in time lets the agent go on, and its message says so', async () => {
    const out = new RecordingOutbound();
    const questions = new AgentQuestions({ out, timeoutMs: 50, log: silentLog() });
    const decision = await questions.ask(CHAT, QUESTION, new AbortController().signal);
    expect(decision).toEqual({
      behavior: 'deny',
      message: 'Nobody answered "Which branch?" within 1 min: go on with your best judgment, and say what you assumed.',
    });
    expect(out.sent[0]!.text).toMatch(/No answer within 1 min means the agent goes on without it\.$/);
    await expect.poll(() => out.sent[0]!.edits.at(-1)).toMatch(/⌛ No answer within 1 min: the agent goes on without it\.$/);
  });

  it('a plan nobody approves in time is not approved: the agent stops to wait', async () => {
    const out = new RecordingOutbound();
    const questions = new AgentQuestions({ out, timeoutMs: 50, log: silentLog() });
    const decision = await questions.plan(CHAT, '1. fix it', new AbortController().signal);
    expect(decision).toEqual({ behavior: 'deny', message: 'Nobody approved the plan within 1 min: stop here, change nothing, and wait for the user.' });
    await expect.poll(() => out.sent[0]!.edits.at(-1)).toMatch(/⌛ Not approved within 1 min: the agent stopped to wait\.$/);
  });

  it('a turn that ends first withdraws the question', async () => {
    const out = new RecordingOutbound();
    const questions = new AgentQuestions({ out, timeoutMs: 60_000, log: silentLog() });
    const ended = new AbortController();
    const decision = questions.ask(CHAT, QUESTION, ended.signal);
    await expect.poll(() => out.sent.length).toBe(1);
    ended.abort();
    expect(await decision).toEqual({ behavior: 'deny', message: 'The turn ended before the question was answered.' });
  });

  it('only a message sent once the question is shown answers it: one sent before goes on as a message', async () => {
    const out = new HeldOutbound();
    const questions = new AgentQuestions({ out, timeoutMs: 60_000, log: silentLog() });
    const decision = questions.ask(CHAT, QUESTION, new AbortController().signal);
    // Sent while the question was on its way: the person had not seen it.
    expect(questions.take({ address: CHAT, user: OWNER, text: 'main', order: SHOWN + 1 }, OWNER.id)).toBe(false);
    out.release();
    await expect.poll(() => out.sent.length).toBe(1);
    // Sent before it was shown, handled after (it crossed the question, or waited out a restart at the chat app).
    expect(questions.take({ address: CHAT, user: OWNER, text: 'main', order: SHOWN - 1 }, OWNER.id)).toBe(false);
    expect(questions.take({ address: CHAT, user: OWNER, text: 'release, of course', order: SHOWN + 1 }, OWNER.id)).toBe(true);
    expect(await decision).toEqual({ behavior: 'allow', updatedInput: { ...QUESTION, answers: { 'Which branch?': 'release, of course' } } });
    await expect.poll(() => out.sent[0]!.edits.at(-1)).toMatch(/✅ release, of course \(Ada\)$/);
  });

  it('a question settled before its message was out still shows how, once it is', async () => {
    const out = new HeldOutbound();
    const questions = new AgentQuestions({ out, timeoutMs: 60_000, log: silentLog() });
    const ended = new AbortController();
    const decision = questions.ask(CHAT, QUESTION, ended.signal);
    ended.abort();
    expect(await decision).toEqual({ behavior: 'deny', message: 'The turn ended before the question was answered.' });
    out.release();
    await expect.poll(() => out.sent[0]?.edits.at(-1)).toMatch(/The turn ended first\.$/);
  });

  it('a message sent before the plan was shown is not taken as changes to it', async () => {
    const out = new HeldOutbound();
    out.release();
    const questions = new AgentQuestions({ out, timeoutMs: 60_000, log: silentLog() });
    const decision = questions.plan(CHAT, '1. fix it', new AbortController().signal);
    await expect.poll(() => out.sent.length).toBe(1);
    expect(questions.take({ address: CHAT, user: OWNER, text: 'keep it short', order: SHOWN - 1 }, OWNER.id)).toBe(false);
    expect(questions.take({ address: CHAT, user: OWNER, text: 'and the tests', order: SHOWN + 1 }, OWNER.id)).toBe(true);
    expect(await decision).toEqual({ behavior: 'deny', message: 'Ada wants changes to the plan: and the tests\nRevise the plan.' });
  });
});
