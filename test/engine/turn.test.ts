import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Log } from '../../src/kernel/log/logger.ts';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { Turn } from '../../src/engine/session/turn.ts';
import { alive, fakeAdapter, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';

let world: FakeCliWorld;
beforeEach(async () => (world = await fakeCliWorld()));
afterEach(() => world.cleanup());

function runTurn(prompt: string, extra: { timeoutMs?: number; graceMs?: number; command?: string; cwd?: string } = {}) {
  const events: AgentEvent[] = [];
  const lines: string[] = [];
  const adapter = fakeAdapter(extra.command ? { resolvedCommand: extra.command } : {});
  const turn = new Turn(
    { adapter, spec: { prompt }, cwd: extra.cwd ?? world.dir, env: world.env, timeoutMs: extra.timeoutMs, graceMs: extra.graceMs ?? 500 },
    { onEvent: (e) => events.push(e), onLine: (l) => lines.push(l) },
  );
  return { turn, events, lines, done: turn.done };
}

describe('a turn of a CLI process', () => {
  it('completes with the result, the session id and an exit event last', async () => {
    const { done, events } = runTurn('hello');
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'echo: hello (turn 1)', exit: { type: 'exit', code: 0, signal: null } });
    expect(outcome.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.map((e) => e.type)).toEqual(['started', 'text', 'usage', 'result', 'exit']);
  });

  it('takes a prompt holding a NUL byte, which no argument can carry', async () => {
    const outcome = await runTurn('pasted \0 bytes').done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'echo: pasted \0 bytes (turn 1)' });
  });

  it('reports a crash in a terminal’s colours in plain words: a chat shows no escape codes', async () => {
    const outcome = await runTurn('crash-in-colour:4').done;
    expect(outcome.error).toBe('fake exited with code 4: Error: the fake agent crashed in colour');
  });

  it('reports a crash with its exit code and the end of stderr', async () => {
    const { done, events } = runTurn('crash:3');
    const outcome = await done;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('fake exited with code 3: fatal: the fake agent crashed on purpose');
    expect(events.slice(-2)).toEqual([
      { type: 'error', message: outcome.error },
      { type: 'exit', code: 3, signal: null },
    ]);
  });

  it('reports death by a signal', async () => {
    const outcome = await runTurn('signal:SIGSEGV').done;
    expect(outcome).toMatchObject({ status: 'failed', exit: { code: null, signal: 'SIGSEGV' } });
    expect(outcome.error).toMatch(/^fake was killed by SIGSEGV/);
  });

  it('reports a CLI that exits cleanly without a result', async () => {
    const outcome = await runTurn('silent').done;
    expect(outcome).toMatchObject({ status: 'failed', error: 'fake exited without a result' });
  });

  it('reports an error result as a failure carrying its text', async () => {
    const outcome = await runTurn('fail').done;
    expect(outcome).toMatchObject({ status: 'failed', error: 'the fake agent failed on purpose', text: 'the fake agent failed on purpose' });
  });

  it('reports a missing binary clearly', async () => {
    const { done, events } = runTurn('hi', { command: '/nonexistent/claude-nope' });
    const outcome = await done;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('fake: command not found: /nonexistent/claude-nope (is it installed, or is the working directory ' + world.dir + ' missing?)');
    expect(events.map((e) => e.type)).toEqual(['error', 'exit']);
  });

  it('survives garbage output, keeping it as log lines', async () => {
    const { done, events, lines } = runTurn('garbage');
    const outcome = await done;
    expect(outcome.status).toBe('completed');
    expect(events.filter((e) => e.type === 'log').map((e) => (e as { line: string }).line)).toEqual([
      'this is not json',
      '{"half": ',
      '\u0000\u0001 binary junk',
      '{"type":"totally_new_event","data":{"x":1}}',
    ]);
    expect(lines).toContain('this is not json');
  });

  it('carries a 5 MB line through without breaking the stream', async () => {
    const { done, events, lines } = runTurn('huge:5');
    const outcome = await done;
    expect(outcome.status).toBe('completed');
    const end = events.find((e) => e.type === 'tool_end');
    expect(end).toMatchObject({ id: 'toolu_fake_huge', isError: false });
    expect((end as { preview: string }).preview.length).toBeLessThan(400);
    expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(5 * 1024 * 1024);
  });

  it('stops a hung CLI on timeout: SIGTERM, grace, SIGKILL, whole group', async () => {
    const { turn, done } = runTurn('grandchild ignore-term hang', { timeoutMs: 400, graceMs: 300 });
    // Its clock waits until the CLI ignores SIGTERM: on a loaded machine its start can take longer than the timeout.
    const release = turn.holdTimeout();
    await expect.poll(async () => (await world.hanging()).length, { timeout: 20_000 }).toBe(1);
    release();
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'timed_out', error: 'timed out after 0 s', exit: { signal: 'SIGKILL' } });
    const [invocation] = await world.invocations();
    expect(alive(invocation!.pid)).toBe(false);
  });

  it('cancel stops the process group and leaves no orphan grandchildren', async () => {
    const { turn, done, events } = runTurn('grandchild hang', { graceMs: 2000 });
    const grandchild = await new Promise<number>((resolve) => {
      const timer = setInterval(() => {
        const line = events.find((e) => e.type === 'log' && e.line.includes('grandchild'));
        if (line) {
          clearInterval(timer);
          resolve(JSON.parse((line as { line: string }).line).pid);
        }
      }, 20);
    });
    expect(alive(grandchild)).toBe(true);
    await turn.stop('stopped by the test');
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'stopped', error: 'stopped by the test', exit: { signal: 'SIGTERM' } });
    // SIGKILL is sent to the group when the CLI has gone; the grandchild dies a moment later.
    await expect.poll(() => alive(grandchild)).toBe(false);
  });

  it('reaps grandchildren left behind by a CLI that exits normally', async () => {
    const { done, events } = runTurn('grandchild');
    await done;
    const line = events.find((e) => e.type === 'log' && e.line.includes('grandchild')) as { line: string };
    const pid = JSON.parse(line.line).pid as number;
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('holds its timeout while waiting on a person, then resumes the clock', async () => {
    // Its CLI works a second against a 500 ms limit, held all along: released once it has answered, the turn ends as it ended.
    const { turn, events, done } = runTurn('sleep:1', { timeoutMs: 500 });
    const release = turn.holdTimeout();
    await Promise.race([done, expect.poll(() => events.some((event) => event.type === 'result')).toBe(true)]);
    release();
    const outcome = await done;
    expect(outcome.status).toBe('completed');
  });

  it('still times out after a hold is released', async () => {
    const { turn, done } = runTurn('hang', { timeoutMs: 400, graceMs: 100 });
    turn.holdTimeout()();
    expect((await done).status).toBe('timed_out');
  });

  it('goes on past listeners that throw, each failure to its log', async () => {
    const failures: unknown[] = [];
    const log = { error: (fields: unknown) => failures.push(fields) } as unknown as Log;
    const events: AgentEvent[] = [];
    const throwing = () => {
      throw new Error('a listener bug');
    };
    const turn = new Turn(
      { adapter: fakeAdapter(), spec: { prompt: 'hello' }, cwd: world.dir, env: world.env, log },
      {
        onEvent: (event) => {
          events.push(event);
          throwing();
        },
        onLine: throwing,
      },
    );
    expect(await turn.done).toMatchObject({ status: 'completed', text: 'echo: hello (turn 1)' });
    expect(events.map((e) => e.type)).toEqual(['started', 'text', 'usage', 'result', 'exit']);
    expect(failures.length).toBeGreaterThanOrEqual(events.length + 1);
  });

  it("calls a class's listeners as its methods: they keep their this", async () => {
    class Collector {
      readonly types: string[] = [];
      onEvent(event: AgentEvent): void {
        this.types.push(event.type);
      }
    }
    const collector = new Collector();
    const turn = new Turn({ adapter: fakeAdapter(), spec: { prompt: 'hello' }, cwd: world.dir, env: world.env }, collector);
    expect((await turn.done).status).toBe('completed');
    expect(collector.types).toEqual(['started', 'text', 'usage', 'result', 'exit']);
  });
});
