import { describe, expect, it } from 'vitest';
import { ACP_IDLE, acpPermissionTool, acpTurnEnd, acpUpdate, type AcpTurnState } from '../../src/kernel/protocols/acp-updates.ts';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { PLAYED_SESSION, playedAcpWire, type WrittenRequest } from '../support/played-acp-agent.ts';

/** The events a run of updates means, and the state it leaves. */
function run(updates: unknown[], from: AcpTurnState = ACP_IDLE): { state: AcpTurnState; events: AgentEvent[] } {
  let state = from;
  const events: AgentEvent[] = [];
  for (const update of updates) {
    const step = acpUpdate(state, update);
    state = step.state;
    events.push(...step.events);
  }
  return { state, events };
}

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

describe('ACP session updates', () => {
  it('join message chunks into one text, shown when the agent turns to a tool, and the last message is the answer', () => {
    const { state, events } = run([
      chunk('Let me '),
      chunk('look.'),
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls -la', kind: 'execute', status: 'pending', rawInput: { command: 'ls -la' } },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'a b c' } }] },
      chunk('Three '),
      chunk('files.'),
    ]);
    expect(events).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_start', id: 't1', name: 'Bash', input: { command: 'ls -la' } },
      { type: 'tool_end', id: 't1', isError: false, preview: 'a b c' },
    ]);
    const end = acpTurnEnd(state);
    expect([end.answer, end.events]).toEqual(['Three files.', [{ type: 'text', text: 'Three files.' }]]);
  });

  it('show a long message as it streams, a paragraph at a time (or a long run to its last word), and the whole of it is the answer', () => {
    const long = 'word '.repeat(150);
    const { state, events } = run([chunk('First para'), chunk('graph.\n\nSecond'), chunk(' one.\n\n'), chunk(long), chunk('the end.')]);
    expect(events).toEqual([
      { type: 'text', text: 'First paragraph.' },
      { type: 'text', text: 'Second one.' },
      { type: 'text', text: long.trimEnd() },
    ]);
    const end = acpTurnEnd(state);
    expect([end.answer, end.events]).toEqual([`First paragraph.\n\nSecond one.\n\n${long}the end.`, [{ type: 'text', text: 'the end.' }]]);
  });

  it('name tools by kind in Claude Code’s names where there is one, with the title when there is no raw input; a failed one is an error', () => {
    const { events } = run([
      { sessionUpdate: 'tool_call', toolCallId: 'e', title: 'src/a.ts', kind: 'edit' },
      { sessionUpdate: 'tool_call', toolCallId: 'm', title: 'a → b', kind: 'move', status: 'failed', rawOutput: 'denied' },
      { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'git push', kind: 'execute', rawInput: {} },
    ]);
    expect(events).toEqual([
      { type: 'tool_start', id: 'e', name: 'Edit', input: { description: 'src/a.ts' } },
      { type: 'tool_start', id: 'm', name: 'move', input: { description: 'a → b' } },
      { type: 'tool_end', id: 'm', isError: true, preview: 'denied' },
      // A command given only by its title (Gemini CLI's) is the command, which tool-policy rules match.
      { type: 'tool_start', id: 'x', name: 'Bash', input: { command: 'git push' } },
    ]);
  });

  it('start a tool a permission request is the first to name (as Gemini asks), once', () => {
    const call = { toolCallId: 'g1', title: 'rm x', kind: 'execute', rawInput: { command: 'rm x' } };
    const asked = acpPermissionTool(ACP_IDLE, call);
    expect(asked.events).toEqual([{ type: 'tool_start', id: 'g1', name: 'Bash', input: { command: 'rm x' } }]);
    expect(run([{ sessionUpdate: 'tool_call_update', toolCallId: 'g1', status: 'completed' }], asked.state).events).toEqual([
      { type: 'tool_end', id: 'g1', isError: false, preview: '' },
    ]);
    expect(acpPermissionTool(asked.state, call).events).toEqual([]);
  });

  it('show a plan as the progress view’s todo list, keep the session’s cost in dollars, and pass over what shows nothing', () => {
    const { state, events } = run([
      { sessionUpdate: 'plan', entries: [{ content: 'read', priority: 'high', status: 'completed' }] },
      { sessionUpdate: 'usage_update', used: 5000, size: 100000, cost: { amount: 0.25, currency: 'USD' } },
      { sessionUpdate: 'usage_update', used: 6000, size: 100000, cost: { amount: 9, currency: 'EUR' } },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } },
      { sessionUpdate: 'available_commands_update', availableCommands: [] },
      { sessionUpdate: 'something_new' },
      'not an update',
    ]);
    expect(events).toEqual([
      { type: 'tool_start', id: expect.stringMatching(/^plan-/), name: 'TodoWrite', input: { todos: [{ content: 'read', status: 'completed' }] } },
      { type: 'tool_end', id: expect.stringMatching(/^plan-/), isError: false, preview: '' },
    ]);
    expect(state.costUsd).toBe(0.25);
    expect(acpTurnEnd(state).state.costUsd).toBe(0.25);
  });
});

describe('the ACP wire, taking updates as the agent sent them', () => {
  /** A wire opened on an agent played here: its requests kept, its events kept. */
  async function openedWire() {
    const events: AgentEvent[] = [];
    const written: WrittenRequest[] = [];
    const wire = playedAcpWire({ emit: (event) => void events.push(event), written: (request) => void written.push(request) });
    await expect.poll(() => events.some((event) => event.type === 'started')).toBe(true);
    const update = (update: unknown) => wire.take({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: PLAYED_SESSION, update } });
    return { wire, events, written, update };
  }

  it('passes over what is not an update or not a command, and keeps the commands that are', async () => {
    const { wire, events, written, update } = await openedWire();
    wire.take({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: PLAYED_SESSION } });
    update('not an update');
    update({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: '/memory', description: 'Its memory' },
        'junk',
        { description: 'no name' },
        { name: 'compress', input: { hint: 'how much' } },
      ],
    });
    expect(wire.take('not JSON-RPC')).toBe(false);
    await expect
      .poll(() => wire.commands)
      .toEqual([
        { name: 'memory', description: 'Its memory' },
        { name: 'compress', description: '', hint: 'how much' },
      ]);
    // And a turn after all that is one as any other.
    wire.send('hello', 'm1');
    await expect.poll(() => written.find((message) => message.method === 'session/prompt')).toBeTruthy();
    update({ sessionUpdate: 'tool_call', toolCallId: 7, title: 'a bad id' });
    update(chunk('Hi.'));
    wire.take({ jsonrpc: '2.0', id: written.find((message) => message.method === 'session/prompt')!.id, result: { stopReason: 'end_turn' } });
    await expect.poll(() => events.find((event) => event.type === 'result')).toMatchObject({ text: 'Hi.', isError: false });
    expect(events.filter((event) => event.type === 'tool_start')).toEqual([]);
  });
});
