import { describe, expect, it } from 'vitest';
import { codexExecJson } from '../../src/kernel/protocols/codex-exec-json.ts';
import { decodeFixture } from './decode-fixture.ts';

const decode = (file: string) => decodeFixture('codex-exec-json', file);

describe('codex exec --json decoder', () => {
  it('decodes a text turn, taking the answer from the last agent message', () => {
    expect(decode('codex-0.169.0-text.raw.ndjson')).toEqual([
      { type: 'started', sessionId: '01a20069-5839-7b70-a0d4-bcadbe57918d' },
      { type: 'text', text: 'Hi from mock!' },
      { type: 'result', text: 'Hi from mock!', isError: false, usage: { inputTokens: 12, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    ]);
  });

  it('decodes a shell command as a tool call', () => {
    const answer = 'The command output was: Chunk ID: f27bf5\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\n';
    expect(decode('codex-0.169.0-tool.raw.ndjson')).toEqual([
      { type: 'started', sessionId: '01a20069-61fe-7d00-96d6-ca01992defb9' },
      { type: 'tool_start', id: 'item_0', name: 'shell', input: { command: "/bin/bash -lc 'echo hello'" } },
      { type: 'tool_end', id: 'item_0', isError: false, preview: 'hello\n' },
      { type: 'text', text: answer },
      { type: 'result', text: answer, isError: false, usage: { inputTokens: 24, outputTokens: 14, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    ]);
  });

  it('keeps a warning item as a log line and goes on', () => {
    const events = decode('codex-0.169.0-readonly-sandbox-write.raw.ndjson');
    expect(events[1]).toEqual({ type: 'log', line: expect.stringContaining('Model metadata for `mock-model` not found') });
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: false });
  });

  it('decodes MCP calls, edits, failed commands and a failed turn', () => {
    expect(decode('codex-mcp-failed.synthetic.ndjson')).toEqual([
      { type: 'started', sessionId: 't-1' },
      { type: 'tool_start', id: 'item_1', name: 'bridge.spawn_subagent', input: { task: 'x' } },
      { type: 'tool_end', id: 'item_1', isError: false, preview: '{"content":[{"type":"text","text":"run #1 started"}]}' },
      { type: 'tool_start', id: 'item_2', name: 'edit', input: { changes: [{ path: 'a.ts', kind: 'update' }] } },
      { type: 'tool_end', id: 'item_2', isError: false, preview: '' },
      { type: 'tool_start', id: 'item_3', name: 'shell', input: { command: 'false' } },
      { type: 'tool_end', id: 'item_3', isError: true, preview: '' },
      { type: 'error', message: 'stream disconnected before completion' },
      { type: 'result', text: 'stream disconnected before completion', isError: true },
    ]);
  });

  it('is pure: the same state and line give the same result, and the input state is untouched', () => {
    const state = codexExecJson.initial();
    const line = { type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'hi' } };
    const first = codexExecJson.step(state, line);
    const second = codexExecJson.step(state, line);
    expect(first).toEqual(second);
    expect(state).toEqual({ lastText: '', started: [] });
  });
});
