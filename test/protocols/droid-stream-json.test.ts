import { describe, expect, it } from 'vitest';
import { decodeFixture } from './decode-fixture.ts';

const decode = (file: string) => decodeFixture('droid-stream-json', file);

describe('droid stream-json decoder', () => {
  it('decodes a text turn, skipping the echoed user prompt', () => {
    const sessionId = '0c6b9a9e-3b6f-4b52-812c-90db8378878e';
    expect(decode('droid-0.225.2-byok-text.raw.ndjson')).toEqual([
      { type: 'started', sessionId, model: 'custom:Mock-0', cwd: '/workspace/work' },
      { type: 'text', text: 'Hi from mock!' },
      {
        type: 'result',
        text: 'Hi from mock!',
        isError: false,
        sessionId,
        usage: { inputTokens: 12, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 },
        turns: 1,
        durationMs: 237,
      },
    ]);
  });

  it('decodes a tool-use turn', () => {
    const sessionId = 'ad7b3171-23ca-4591-9640-0018857e175c';
    const answer = 'The command printed: hello\n\n\n[Process exited with code 0]';
    expect(decode('droid-0.225.2-byok-tool.raw.ndjson')).toEqual([
      { type: 'started', sessionId, model: 'custom:Mock-0', cwd: '/workspace/work' },
      { type: 'text', text: 'Let me run that.' },
      {
        type: 'tool_start',
        id: 'toolu_mock_1',
        name: 'Execute',
        input: { summary: 'Print hello to stdout', command: 'echo hello', riskLevelReason: 'This echo command only prints text.', riskLevel: 'low' },
      },
      { type: 'tool_end', id: 'toolu_mock_1', isError: false, preview: 'hello\n\n\n[Process exited with code 0]' },
      { type: 'text', text: answer },
      {
        type: 'result',
        text: answer,
        isError: false,
        sessionId,
        usage: { inputTokens: 24, outputTokens: 14, cacheReadTokens: 0, cacheWriteTokens: 0 },
        turns: 2,
        durationMs: 256,
      },
    ]);
  });

  it('decodes a resumed turn under the same session id', () => {
    const events = decode('droid-0.225.2-byok-resume.raw.ndjson');
    expect(events[0]).toMatchObject({ type: 'started', sessionId: 'ad7b3171-23ca-4591-9640-0018857e175c' });
    expect(events.at(-1)).toMatchObject({ type: 'result', text: 'Hi from mock!', turns: 3 });
  });

  it('reports a login failure as an error event', () => {
    expect(decode('droid-0.225.2-no-login.raw.ndjson')).toEqual([
      { type: 'started', sessionId: '62aebb00-f0f2-40aa-8777-7a071396ab2d', model: 'gpt-5.6-sol', cwd: '/workspace' },
      { type: 'error', message: 'Error: Authentication failed. Please log in using /login or set a valid FACTORY_API_KEY environment variable.' },
    ]);
  });
});
