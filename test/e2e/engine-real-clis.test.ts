import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { AgentSession } from '../../src/engine/session/session.ts';
import { CODEX_MODEL, DROID_MODEL, prepareCliEnv, type CliEnv, type CliName } from '../support/cli-env.ts';
import { echoScript, shellToolCall, startMockModel, toolThenText, type MockModel } from '../support/mock-model/index.ts';
import { realAdapter } from '../support/real-adapters.ts';

// The real claude, codex and droid binaries, through the same session code the bot uses,
// against the mock model API on 127.0.0.1.
const MODELS: Partial<Record<CliName, string>> = { codex: CODEX_MODEL, droid: DROID_MODEL };

describe.each(['claude', 'codex', 'droid'] as const)('%s through AgentSession', (cli) => {
  let mock: MockModel;
  let cliEnv: CliEnv;
  beforeAll(async () => {
    mock = await startMockModel();
    cliEnv = await prepareCliEnv(cli, mock.url);
  });
  afterAll(async () => {
    await mock.close();
    await cliEnv.cleanup();
  });

  const session = async () => new AgentSession({ adapter: await realAdapter(cli), cwd: cliEnv.workdir, env: cliEnv.env, options: { model: MODELS[cli] } });

  it('runs a text turn, then resumes the same CLI session on the next', async () => {
    mock.reset(echoScript);
    const s = await session();
    const events: AgentEvent[] = [];
    const first = await s.send('remember the word banana', { onEvent: (e) => events.push(e) });
    expect(first).toMatchObject({ status: 'completed', text: 'You said: remember the word banana' });
    expect(first.sessionId).toBeTruthy();
    expect(events[0]).toMatchObject({ type: 'started', sessionId: first.sessionId });
    expect(events.at(-1)).toEqual({ type: 'exit', code: 0, signal: null });

    const second = await s.send('what was the word?');
    expect(second).toMatchObject({ status: 'completed', text: 'You said: what was the word?' });
    expect(second.sessionId).toBe(first.sessionId);
    // The resumed turn's request carries the first turn's history.
    const last = mock.modelRequests.at(-1)!;
    expect(JSON.stringify(last.messages)).toContain('remember the word banana');
  });

  it('takes a prompt that starts with a dash as text, never as an option', async () => {
    mock.reset(echoScript);
    const s = await session();
    expect(await s.send('- fix the list item')).toMatchObject({ status: 'completed', text: 'You said: - fix the list item' });
    expect(await s.send('--help me with the flags')).toMatchObject({ status: 'completed', text: 'You said: --help me with the flags' });
  });

  it("takes a prompt larger than the kernel's limit for one argument", async () => {
    mock.reset(() => ({ text: 'read it all' }));
    const big = `Summarise this log:\n${'0123456789abcdef '.repeat(12_000)}end of log`; // about 200 KB
    expect(await (await session()).send(big)).toMatchObject({ status: 'completed', text: 'read it all' });
    expect(JSON.stringify(mock.modelRequests.at(-1)!.messages)).toContain('end of log');
  });

  it('starts a fresh session when the CLI no longer knows the one to resume', async () => {
    mock.reset(echoScript);
    const s = new AgentSession({
      adapter: await realAdapter(cli),
      cwd: cliEnv.workdir,
      env: cliEnv.env,
      resumeId: '0b3c1e6a-1111-4222-8333-944455556666',
      options: { model: MODELS[cli] },
    });
    const outcome = await s.send('are you there?');
    expect(outcome).toMatchObject({ status: 'completed', text: 'You said: are you there?' });
    // droid starts a session of that id by itself; claude and codex refuse the resume, and the bridge starts afresh and says so
    if (cli !== 'droid') {
      expect(outcome.notice).toMatch(/no longer knows the previous session/);
      expect(outcome.sessionId).not.toBe('0b3c1e6a-1111-4222-8333-944455556666');
    }
  });

  it('runs a tool-use turn and reports the tool call', async () => {
    mock.reset(
      toolThenText({ call: shellToolCall(cli, 'echo hello'), finalText: (results) => `Tool said ${results[0]!.content.includes('hello') ? 'hello' : '?'}` }),
    );
    const events: AgentEvent[] = [];
    const outcome = await (await session()).send('run echo hello', { onEvent: (e) => events.push(e) });
    expect(outcome).toMatchObject({ status: 'completed', text: 'Tool said hello' });
    const start = events.find((e) => e.type === 'tool_start');
    const end = events.find((e) => e.type === 'tool_end');
    expect(start).toMatchObject({ type: 'tool_start', input: expect.objectContaining({}) });
    expect(JSON.stringify(start)).toContain('echo hello');
    expect(end).toMatchObject({ type: 'tool_end', id: (start as { id: string }).id, isError: false });
    expect((end as { preview: string }).preview).toContain('hello');
  });

  it('stops a turn while the model is still answering, leaving nothing running', async () => {
    mock.reset(() => ({ text: 'too late', delayMs: Infinity }));
    const s = await session();
    const events: AgentEvent[] = [];
    const turn = s.send('take your time', { onEvent: (e) => events.push(e) });
    await expect.poll(() => mock.modelRequests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await s.stop('stopped by the test');
    expect(await turn).toMatchObject({ status: 'stopped', error: 'stopped by the test' });
    expect(events.at(-1)).toMatchObject({ type: 'exit' });
  });

  it('reports a model API failure as a failed turn with the reason', async () => {
    mock.reset(() => ({ error: { status: 401, message: 'invalid x-api-key' } }));
    const outcome = await (await session()).send('hello');
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBeTruthy();
  });
});
