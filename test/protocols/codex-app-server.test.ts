import { describe, expect, it } from 'vitest';
import { codexAppServerWire } from '../../src/kernel/protocols/codex-app-server-wire.ts';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import type { WireSession } from '../../src/kernel/protocols/live-wire.ts';
import { decodeFixture } from './decode-fixture.ts';

const decode = (file: string) => decodeFixture('codex-app-server', file);

describe('codex app-server decoder', () => {
  it('decodes a turn whose command was approved: the message it took, the approval request, the answer and its usage', () => {
    expect(decode('codex-0.169.0-app-server-approval.raw.ndjson')).toEqual([
      { type: 'started', sessionId: '01a21147-ed8e-7d72-9c56-c638f1f4d1dd' },
      { type: 'input', id: 'm1', state: 'started' },
      { type: 'tool_start', id: 'call_mock_1', name: 'shell', input: { command: "/bin/bash -lc 'touch made && echo done'" } },
      {
        type: 'permission',
        requestId: '0',
        tool: 'shell',
        input: { command: "/bin/bash -lc 'touch made && echo done'", cwd: '/tmp/jsonl-bridge-codex-kQjSGr/work' },
        toolUseId: 'call_mock_1',
      },
      { type: 'tool_end', id: 'call_mock_1', isError: false, preview: 'done\n' },
      // Each model call's usage as codex reports it, priced as the turn goes.
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 41, cacheReadTokens: 0, cacheWriteTokens: 0 } },
      { type: 'text', text: 'made it' },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 37, cacheReadTokens: 0, cacheWriteTokens: 0 } },
      {
        type: 'result',
        text: 'made it',
        isError: false,
        answered: ['m1'],
        usage: { inputTokens: 24, outputTokens: 78, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
    ]);
  });

  it('answers a steered message with the turn it joined, and an interrupted turn as stopped', () => {
    const events = decode('codex-0.169.0-app-server-steer-interrupt.raw.ndjson');
    const results = events.filter((event) => event.type === 'result');
    expect(results).toEqual([
      expect.objectContaining({ text: 'heard BANANA', isError: false, answered: ['prompt-1', 'steer-1'] }),
      expect.objectContaining({ text: 'codex stopped the turn', isError: true, answered: ['prompt-2'] }),
    ]);
    expect(events.filter((event) => event.type === 'input').map((event) => event.id)).toEqual(['prompt-1', 'steer-1', 'prompt-2']);
  });
});

/** The wire against a scripted server: what it wrote, and what it reported. */
function wire(session: Partial<WireSession> = {}) {
  const written: Record<string, unknown>[] = [];
  const events: AgentEvent[] = [];
  const client = codexAppServerWire(
    {
      write: (line) => written.push(JSON.parse(line)) > 0,
      emit: (event) => events.push(event),
    },
    { cwd: '/work', mode: 'bypass', ...session },
  );
  const sent = (method: string) => written.filter((line) => line.method === method);
  const last = (method: string) => sent(method).at(-1) as { id: number; params: Record<string, unknown> };
  const reply = (method: string, result: unknown) => client.take({ id: last(method).id, result });
  const refuse = (method: string, message: string) => client.take({ id: last(method).id, error: { code: -32600, message } });
  const open = () => {
    reply('initialize', {});
    reply(session.resumeId ? 'thread/resume' : 'thread/start', { thread: { id: 'thread-1' } });
  };
  return { client, written, events, sent, last, reply, refuse, open };
}

describe('codex app-server wire', () => {
  it('opens a thread in the chat’s directory and mode after the handshake; a message waits for it', () => {
    const w = wire({ mode: 'ask' });
    expect(w.written.map((line) => line.method)).toEqual(['initialize']);
    expect(w.client.send('hello', 'm1')).toBe(true);
    w.reply('initialize', {});
    expect(w.written.map((line) => line.method)).toEqual(['initialize', 'initialized', 'thread/start']);
    expect(w.last('thread/start').params).toEqual({ cwd: '/work', sandbox: 'workspace-write', approvalPolicy: 'untrusted' });
    w.reply('thread/start', { thread: { id: 'thread-1' } });
    expect(w.last('turn/start').params).toEqual({ threadId: 'thread-1', input: [{ type: 'text', text: 'hello' }], clientUserMessageId: 'm1' });
  });

  it('reads only in safe mode, and resumes the session it continues', () => {
    const w = wire({ mode: 'safe', resumeId: 'thread-0' });
    w.reply('initialize', {});
    expect(w.last('thread/resume').params).toMatchObject({ threadId: 'thread-0', sandbox: 'read-only', approvalPolicy: 'never' });
  });

  it('leaves codex’s own sandbox off in the bridge’s walls, whose read-only directory makes safe safe', () => {
    for (const mode of ['bypass', 'ask', 'safe'] as const) {
      const w = wire({ mode, walled: true });
      w.reply('initialize', {});
      expect(w.last('thread/start').params).toMatchObject({ sandbox: 'danger-full-access', approvalPolicy: mode === 'ask' ? 'untrusted' : 'never' });
    }
  });

  it('fails each message with the reason a resumed thread could not be opened', async () => {
    const w = wire({ resumeId: 'gone' });
    w.client.send('hello', 'm1');
    w.reply('initialize', {});
    w.refuse('thread/resume', 'no rollout found for thread id gone');
    await Promise.resolve();
    expect(w.events).toEqual([{ type: 'result', text: 'no rollout found for thread id gone', isError: true, answered: ['m1'] }]);
    w.client.send('again', 'm2');
    await Promise.resolve();
    expect(w.events.at(-1)).toEqual({ type: 'result', text: 'no rollout found for thread id gone', isError: true, answered: ['m2'] });
    expect(w.sent('turn/start')).toEqual([]);
  });

  it('steers a message into the turn at work, once codex has named the turn', () => {
    const w = wire();
    w.open();
    w.client.send('the task', 'm1');
    w.client.send('also this', 'm2');
    expect(w.sent('turn/steer')).toEqual([]);
    w.reply('turn/start', { turn: { id: 'turn-1' } });
    expect(w.last('turn/steer').params).toEqual({
      threadId: 'thread-1',
      expectedTurnId: 'turn-1',
      input: [{ type: 'text', text: 'also this' }],
      clientUserMessageId: 'm2',
    });
  });

  it('starts the next turn with a steer that came as the turn ended', () => {
    const w = wire();
    w.open();
    w.client.send('the task', 'm1');
    w.reply('turn/start', { turn: { id: 'turn-1' } });
    w.client.send('late', 'm2');
    expect(w.client.take({ method: 'turn/completed', params: { turn: { id: 'turn-1', status: 'completed' } } })).toBe(false);
    w.refuse('turn/steer', 'no active turn to steer');
    expect(w.sent('turn/start')).toHaveLength(2);
    expect(w.last('turn/start').params).toMatchObject({ clientUserMessageId: 'm2' });
  });

  it('interrupts the turn at work and reports the answer; with none at work, answers at once', () => {
    const w = wire();
    w.open();
    w.client.interrupt('stop-0');
    expect(w.events).toEqual([{ type: 'control', requestId: 'stop-0', ok: true }]);
    w.client.send('the task', 'm1');
    w.reply('turn/start', { turn: { id: 'turn-1' } });
    w.client.interrupt('stop-1');
    expect(w.last('turn/interrupt').params).toEqual({ threadId: 'thread-1', turnId: 'turn-1' });
    w.reply('turn/interrupt', {});
    expect(w.events.at(-1)).toEqual({ type: 'control', requestId: 'stop-1', ok: true });
  });

  it('answers an approval request by its own id, and refuses a request nobody in the chat can answer', () => {
    const w = wire();
    w.open();
    expect(w.client.take({ method: 'item/commandExecution/requestApproval', id: 0, params: {} })).toBe(false);
    w.client.decide('0', { behavior: 'allow', updatedInput: {} });
    w.client.decide('"a"', { behavior: 'deny', message: 'no' });
    expect(w.written.slice(-2)).toEqual([
      { jsonrpc: '2.0', id: 0, result: { decision: 'accept' } },
      { jsonrpc: '2.0', id: 'a', result: { decision: 'decline' } },
    ]);
    expect(w.client.take({ method: 'item/tool/requestUserInput', id: 7, params: {} })).toBe(true);
    expect(w.written.at(-1)).toMatchObject({ id: 7, error: { code: -32601 } });
  });
});
