import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSession } from '../../src/engine/session/session.ts';
import { fakeAdapter, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';

let world: FakeCliWorld;
beforeEach(async () => (world = await fakeCliWorld()));
afterEach(() => world.cleanup());

const session = (extra: Partial<ConstructorParameters<typeof AgentSession>[0]> = {}) =>
  new AgentSession({ adapter: fakeAdapter(), cwd: world.dir, env: world.env, graceMs: 300, ...extra });

describe('an agent session', () => {
  it('starts the CLI fresh, then resumes its own session id on later turns', async () => {
    const ids: string[] = [];
    const s = session({ onResumeId: (id) => ids.push(id) });
    const first = await s.send('one');
    const second = await s.send('two');
    expect(first.text).toBe('echo: one (turn 1)');
    expect(second.text).toBe('echo: two (turn 2)');
    expect(second.sessionId).toBe(first.sessionId);
    expect(ids).toEqual([first.sessionId]);
    const calls = await world.invocations();
    expect(calls.map((c) => c.resume)).toEqual([undefined, first.sessionId]);
  });

  it('resumes a session id it was given (a bridge restart)', async () => {
    const before = await session().send('remember me');
    const after = await session({ resumeId: before.sessionId }).send('still there?');
    expect(after.text).toBe('echo: still there? (turn 2)');
  });

  it('queues turns in order and never runs two at once', async () => {
    const s = session();
    const starts: string[] = [];
    const results = await Promise.all(['sleep:0.3 a', 'b', 'c'].map((prompt) => s.send(prompt, { onStart: () => starts.push(prompt) })));
    expect(results.map((r) => r.text)).toEqual(['echo: sleep:0.3 a (turn 1)', 'echo: b (turn 2)', 'echo: c (turn 3)']);
    expect(starts).toEqual(['sleep:0.3 a', 'b', 'c']);
    const calls = await world.invocations();
    // each later turn resumed the session the first one created: they ran one after another
    expect(calls.slice(1).every((c) => c.resume === results[0]!.sessionId)).toBe(true);
  });

  it('reports busy and queued counts', async () => {
    const s = session();
    const a = s.send('sleep:0.3');
    const b = s.send('next');
    await new Promise((r) => setTimeout(r, 50));
    expect([s.busy, s.queued]).toEqual([true, 1]);
    await Promise.all([a, b]);
    expect([s.busy, s.queued]).toEqual([false, 0]);
  });

  it('stop ends the running turn and drops the queued ones', async () => {
    const s = session();
    let started!: () => void;
    const cliStarted = new Promise<void>((resolve) => (started = resolve));
    const running = s.send('hang', { onEvent: (e) => e.type === 'started' && started() });
    const queued = s.send('never runs');
    await cliStarted;
    expect(await s.stop('stopped by /stop')).toEqual({ running: true, dropped: 1 });
    expect(await running).toMatchObject({ status: 'stopped', error: 'stopped by /stop' });
    expect(await queued).toMatchObject({ status: 'stopped', error: 'stopped by /stop' });
    expect((await world.invocations()).map((c) => c.prompt)).toEqual(['hang']);
    // and the session is usable again
    expect((await s.send('after')).status).toBe('completed');
  });

  it('keeps the session id from a turn that was stopped after the CLI named it', async () => {
    const ids: string[] = [];
    const s = session({ onResumeId: (id) => ids.push(id) });
    let started!: () => void;
    const cliStarted = new Promise<void>((resolve) => (started = resolve));
    const turn = s.send('hang', { onEvent: (e) => e.type === 'started' && started() });
    await cliStarted;
    expect(ids).toHaveLength(1); // persisted while the turn was still running
    await s.stop('bye');
    await turn;
    expect(s.cliSessionId).toBe(ids[0]);
  });

  it('reset starts a fresh CLI session', async () => {
    const s = session();
    const first = await s.send('one');
    s.reset();
    const second = await s.send('two');
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.text).toBe('echo: two (turn 1)');
  });

  it('starts a fresh session, with a note, when the CLI no longer knows the one to resume', async () => {
    const adopted: string[] = [];
    const s = session({ resumeId: 'gone-long-ago', onResumeId: (id) => adopted.push(id) });
    const first = await s.send('say:hello-again');
    expect(first).toMatchObject({
      status: 'completed',
      text: 'hello-again',
      notice: 'fake no longer knows the previous session (gone-long-ago), so this message started a fresh one.',
    });
    expect(adopted).toEqual([first.sessionId]);
    const second = await s.send('say:and-on');
    expect(second.notice).toBeUndefined();
    expect(second.sessionId).toBe(first.sessionId);
  });

  it('fails a turn clearly when the CLI cannot take an option', async () => {
    const adapter = fakeAdapter();
    const s = new AgentSession({ adapter: { ...adapter, options: {} }, cwd: world.dir, env: world.env, options: { model: 'big' } });
    const outcome = await s.send('hi');
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.error).toMatch(/^fake does not support choosing a model \(no options.model in .*fake.json\)$/);
  });

  it('passes model, system prompt and tool lists as the adapter declares', async () => {
    await session({ options: { model: 'opus', systemPrompt: 'Be brief.', allowedTools: ['Read', 'Grep'], disallowedTools: ['Bash'] } }).send('go');
    const [call] = await world.invocations();
    expect(call!.argv).toEqual([
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'opus',
      '--append-system-prompt',
      'Be brief.',
      '--allowedTools',
      'Read,Grep',
      '--disallowedTools',
      'Bash',
      '--dangerously-skip-permissions',
      '-p',
      '--',
      'go',
    ]);
    expect(call!.cwd).toBe(world.dir);
  });

  it('reads fresh options before each turn; a stop while they are read drops the turn unrun', async () => {
    let release!: () => void;
    const reading = new Promise<void>((resolve) => (release = resolve));
    const s = session({ freshOptions: async () => (await reading, { model: 'fresh-model' }) });
    const first = s.send('one');
    await Promise.resolve();
    expect(s.busy).toBe(true); // on its way: a message now waits behind it
    expect(await Promise.all([s.stop('stopped by Ada'), first])).toEqual([
      { running: true, dropped: 0 },
      expect.objectContaining({ status: 'stopped', error: 'stopped by Ada' }),
    ]);
    release();
    expect(await world.invocations()).toEqual([]);
    await s.send('two');
    const [call] = await world.invocations();
    expect(call!.argv.join(' ')).toContain('--model fresh-model');
  });

  it('asks the bridge for permission instead of bypassing when told to', async () => {
    const mcp = { url: 'http://127.0.0.1:1/mcp/x', serverName: 'bridge', token: 'x', configFile: '/tmp/mcp.json' };
    await session({ permissions: 'ask', options: { mcp } }).send('go');
    const [call] = await world.invocations();
    expect(call!.argv).toContain('--permission-prompt-tool');
    expect(call!.argv[call!.argv.indexOf('--permission-prompt-tool') + 1]).toBe('mcp__bridge__approve_tool');
    expect(call!.argv).not.toContain('--dangerously-skip-permissions');
  });
});
