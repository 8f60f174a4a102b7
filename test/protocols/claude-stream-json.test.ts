import { describe, expect, it } from 'vitest';
import { decodeFixture } from './decode-fixture.ts';

const decode = (file: string) => decodeFixture('claude-stream-json', file);
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
// Each assistant line's message usage, as it stood when the line was printed (output counted at its start).
const used = (model: string, messageId: string) => ({ type: 'usage', usage: usage(12, 1), model, messageId });

describe('claude stream-json decoder', () => {
  it('decodes a text turn (2.1.330, result line not starting with "type")', () => {
    const sessionId = '38b63481-e1ab-407d-b1ba-f06fb12f749b';
    expect(decode('claude-2.1.330-text.raw.ndjson')).toEqual([
      { type: 'started', sessionId, model: 'claude-opus-5-5', cwd: '/workspace/work' },
      { type: 'text', text: 'Hi from mock!' },
      used('claude-opus-5-5', 'msg_mock_1'),
      { type: 'result', text: 'Hi from mock!', isError: false, sessionId, usage: usage(12, 7), costUsd: 0.000188, turns: 1, durationMs: 188 },
    ]);
  });

  it('decodes a text turn (2.1.197)', () => {
    const sessionId = '9004cae9-444f-4dc7-9c54-c0648cf791f3';
    expect(decode('claude-2.1.197-text.raw.ndjson')).toEqual([
      { type: 'started', sessionId, model: 'claude-opus-4-8[1m]', cwd: '/workspace/work' },
      { type: 'text', text: 'Hi from mock!' },
      used('claude-opus-4-8', 'msg_mock_1'),
      { type: 'result', text: 'Hi from mock!', isError: false, sessionId, usage: usage(12, 7), costUsd: 0.000235, turns: 1, durationMs: 238 },
    ]);
  });

  it('decodes a tool-use turn', () => {
    const sessionId = '35776cb9-6930-41ce-a631-fd6891eb635b';
    expect(decode('claude-2.1.330-tool-bash.raw.ndjson')).toEqual([
      { type: 'started', sessionId, model: 'claude-opus-5-5', cwd: '/workspace/work' },
      { type: 'text', text: 'Let me run that.' },
      used('claude-opus-5-5', 'msg_mock_2'),
      { type: 'tool_start', id: 'toolu_mock_1', name: 'Bash', input: { command: 'echo hello', description: 'Print hello' } },
      used('claude-opus-5-5', 'msg_mock_2'),
      { type: 'tool_end', id: 'toolu_mock_1', isError: false, preview: 'hello' },
      { type: 'text', text: 'The command printed: hello' },
      used('claude-opus-5-5', 'msg_mock_3'),
      { type: 'result', text: 'The command printed: hello', isError: false, sessionId, usage: usage(24, 14), costUsd: 0.000376, turns: 2, durationMs: 245 },
    ]);
  });

  it("ends a background agent's Task step when the agent finishes, not when it is launched (2.1.330)", () => {
    const events = decode('claude-2.1.330-background-agent.raw.ndjson');
    const task = (e: (typeof events)[number]) =>
      (e.type === 'tool_start' || e.type === 'tool_end' || e.type === 'text') && (e.type === 'text' ? e.parentId : e.id) === 'toolu_mock_1';
    expect(events.filter(task)).toEqual([
      { type: 'tool_start', id: 'toolu_mock_1', name: 'Agent', input: { description: 'Review the change', prompt: 'Review it', subagent_type: 'reviewer' } },
      { type: 'text', text: 'reviewed: fine', parentId: 'toolu_mock_1' },
      // not the launch's "Async agent launched…" (metadata the CLI says never to show), but the agent's own end
      { type: 'tool_end', id: 'toolu_mock_1', isError: false, preview: 'reviewed: fine' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', text: 'The reviewer finished.' });
  });

  it('follows the messages it takes on its input while it works, and which ones a result answered (2.1.330)', () => {
    // Two messages by uuid: the second came while a tool ran, and joined the running turn.
    const [first, second] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    const events = decode('claude-2.1.330-input-midturn.raw.ndjson');
    const input = (id: string) => events.flatMap((e) => (e.type === 'input' && e.id === id ? [e.state] : []));
    expect(input(first)).toEqual(['queued', 'started', 'completed']);
    expect(input(second)).toEqual(['queued', 'started', 'completed']);
    const results = events.filter((e) => e.type === 'result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ text: 'ECHO(FIRST) tr=1 #1', answered: [first, second] });
    // The second was answered within the turn, before its result.
    expect(events.findIndex((e) => e.type === 'input' && e.id === second && e.state === 'completed')).toBeLessThan(events.indexOf(results[0]!));
    expect(events.some((e) => e.type === 'log')).toBe(false);
  });

  it('marks a denied tool as a failed tool call', () => {
    const events = decode('claude-2.1.330-permission-denied.raw.ndjson');
    expect(events.filter((e) => e.type === 'tool_end')).toEqual([
      expect.objectContaining({ id: 'toolu_mock_1', isError: true, preview: expect.stringContaining('needs approval') }),
    ]);
    expect(events.some((e) => e.type === 'log')).toBe(false);
  });

  it('reports an API failure as an error result', () => {
    const events = decode('claude-2.1.330-http401.raw.ndjson');
    expect(events.at(-1)).toEqual({
      type: 'result',
      text: 'Failed to authenticate. API Error: 401 mock error 401',
      isError: true,
      sessionId: 'a23929d4-71a0-4bb0-a97c-5a89ce146247',
      usage: usage(0, 0),
      costUsd: 0,
      turns: 1,
      durationMs: 181,
    });
  });

  it('ignores partial-message stream events and decodes each turn of a stdin session', () => {
    expect(decode('claude-2.1.330-partial-messages.raw.ndjson').map((e) => e.type)).toEqual(['started', 'text', 'usage', 'result']);
    expect(decode('claude-2.1.330-input-stream-json.raw.ndjson').map((e) => e.type)).toEqual([
      'started',
      'text',
      'usage',
      'result',
      'started',
      'text',
      'usage',
      'result',
    ]);
  });

  it("keeps Claude's own Task subagents nested under the Task call", () => {
    expect(decode('claude-task-subagent.synthetic.ndjson')).toEqual([
      { type: 'started', sessionId: 's-task', model: 'claude-opus-5-5', cwd: '/w' },
      { type: 'tool_start', id: 'toolu_task', name: 'Task', input: { description: 'Find TODOs', prompt: 'grep for TODO', subagent_type: 'general-purpose' } },
      { type: 'tool_start', id: 'toolu_inner', name: 'Bash', input: { command: 'grep -rn TODO .' }, parentId: 'toolu_task' },
      { type: 'tool_end', id: 'toolu_inner', isError: false, preview: 'a.ts:1: TODO', parentId: 'toolu_task' },
      { type: 'text', text: 'One TODO in a.ts', parentId: 'toolu_task' },
      { type: 'tool_end', id: 'toolu_task', isError: false, preview: 'One TODO in a.ts' },
      { type: 'text', text: 'There is one TODO, in a.ts.' },
      {
        type: 'result',
        text: 'There is one TODO, in a.ts.',
        isError: false,
        sessionId: 's-task',
        usage: { inputTokens: 100, outputTokens: 20 },
        costUsd: 0.01,
        turns: 3,
        durationMs: 1200,
      },
    ]);
  });

  it('says each retry of a model API it cannot reach, in its own fields (2.1.330, ANTHROPIC_BASE_URL at a closed port)', () => {
    expect(decode('claude-2.1.330-api-unreachable.raw.ndjson')).toEqual([
      expect.objectContaining({ type: 'started' }),
      { type: 'error', message: 'API retry 1 of 10, next in 0.5 s: unknown, no HTTP answer' },
      { type: 'error', message: 'API retry 2 of 10, next in 1.2 s: unknown, no HTTP answer' },
    ]);
  });

  it('gives an error result a readable text when the CLI gives none', () => {
    expect(decode('claude-max-turns.synthetic.ndjson')).toEqual([
      { type: 'result', text: 'Claude Code ended with error_max_turns', isError: true, sessionId: 's-x', turns: 5 },
    ]);
  });

  it('keeps garbage, unknown events and a truncated last line as log lines, never throwing', () => {
    expect(decode('mixed-garbage.synthetic.ndjson')).toEqual([
      { type: 'log', line: 'Welcome to the CLI v9! (a banner, not JSON)' },
      { type: 'started', sessionId: 's-g', model: 'm' },
      { type: 'log', line: '{"type":"brand_new_event","payload":42}' },
      { type: 'log', line: '[1,2,3]' },
      { type: 'text', text: 'still fine' },
      // an assistant line of the wrong shape is understood as saying nothing
      { type: 'log', line: '{"type":"result","subtype":"success","is_error":false,"result":"done","session_' },
    ]);
  });

  it('cuts long tool output to a short preview', () => {
    const events = decode('claude-2.1.330-permission-denied.raw.ndjson');
    const end = events.find((e) => e.type === 'tool_end');
    expect(end && 'preview' in end && end.preview.length).toBeLessThanOrEqual(301);
  });
});
