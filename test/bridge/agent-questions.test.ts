import { describe, expect, it } from 'vitest';
import { AgentQuestions } from '../../src/bridge/agent-questions.ts';
import { silentLog } from '../../src/log/logger.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

// A question or plan nobody answers does not hold the chat's turn for ever: after the approval
// timeout the agent is told and goes on (a question) or stops to wait (a plan).
const CHAT = { transport: 'telegram', chat: '-5' };
const QUESTION = { questions: [{ question: 'Which branch?', header: 'Branch', options: [{ label: 'main' }, { label: 'release' }] }] };

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
});
