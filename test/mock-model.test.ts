// Proves the offline harness: each REAL CLI binary talks to the mock model and
// the mock sees (and scripts) what matters: text, tool use, resume, system prompt, MCP.
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CODEX_MODEL, DROID_MODEL, DROID_WIRE_MODEL, prepareCliEnv, runCli, type CliEnv, type CliName, type CliRun } from './support/cli-env.ts';
import {
  DEFAULT_TEXT,
  claudeMcpConfig,
  codexMcpArgs,
  defaultScript,
  echoScript,
  shellToolCall,
  startMockMcpServer,
  startMockModel,
  toolThenText,
  writeDroidMcpConfig,
  type MockMcpServer,
  type MockModel,
  type ModelRequest,
} from './support/mock-model/index.ts';

let mock: MockModel;
let mcp: MockMcpServer;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  mock = await startMockModel();
  mcp = await startMockMcpServer({ name: 'x', tools: [{ name: 'ping' }] });
});
afterAll(async () => {
  await mock.close();
  await mcp.close();
});
beforeEach(() => {
  mock.reset(defaultScript);
  mcp.calls.length = 0;
});
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function sandbox(cli: CliName): Promise<CliEnv> {
  const env = await prepareCliEnv(cli, mock.url);
  cleanups.push(env.cleanup);
  return env;
}

function eventsOfType(run: CliRun, type: string): Record<string, unknown>[] {
  return run.events.filter((event) => event.type === type);
}

/** The model request at `index`, failing clearly when the CLI sent fewer. */
function modelRequest(index: number): ModelRequest {
  const request = mock.modelRequests[index];
  if (!request) throw new Error(`expected model request #${index}, got ${mock.modelRequests.length}`);
  return request;
}

function expectSuccess(run: CliRun): void {
  expect(run.exitCode, run.stderr).toBe(0);
  expect(mock.scriptErrors).toEqual([]);
}

const HELLO = 'echo hello';

describe('claude (real binary)', () => {
  const base = ['--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'];
  const finalResult = (run: CliRun) => eventsOfType(run, 'result').at(-1);

  it('answers a text turn with the scripted text', async () => {
    const run = await runCli(await sandbox('claude'), ['-p', 'say hi', ...base]);
    expectSuccess(run);
    expect(finalResult(run)).toMatchObject({ result: DEFAULT_TEXT, is_error: false });
    expect(modelRequest(0)).toMatchObject({ api: 'anthropic', lastUserText: 'say hi', toolResults: [] });
  });

  it('runs Bash and sends the tool result back', async () => {
    mock.reset(toolThenText({ call: shellToolCall('claude', HELLO) }));
    const run = await runCli(await sandbox('claude'), ['-p', 'run echo hello', ...base]);
    expectSuccess(run);
    expect(mock.modelRequests).toHaveLength(2);
    expect(modelRequest(1).toolResults).toEqual([{ id: expect.any(String), content: 'hello', isError: false }]);
    expect(finalResult(run)).toMatchObject({ result: 'The tool said: hello' });
  });

  it('resumes a session with its history', async () => {
    mock.reset(echoScript);
    const env = await sandbox('claude');
    const first = await runCli(env, ['-p', 'first prompt', ...base]);
    const sessionId = finalResult(first)?.session_id;
    expect(sessionId).toEqual(expect.any(String));
    const second = await runCli(env, ['-p', 'second prompt', ...base, '--resume', String(sessionId)]);
    expectSuccess(second);
    expect(finalResult(second)).toMatchObject({ result: 'You said: second prompt', session_id: sessionId });
    const history = JSON.stringify(modelRequest(1).messages);
    expect(history).toContain('first prompt');
    expect(history).toContain('You said: first prompt');
  });

  it('appends --append-system-prompt to the system prompt', async () => {
    const args = ['-p', 'hi', ...base, '--append-system-prompt', 'BRIDGE-RULES-42'];
    const run = await runCli(await sandbox('claude'), args);
    expectSuccess(run);
    expect(modelRequest(0).system).toContain('BRIDGE-RULES-42');
  });

  it('offers and calls an allowed MCP tool as mcp__x__ping', async () => {
    mock.reset(toolThenText({ call: { name: 'mcp__x__ping', input: { text: 'hi' } } }));
    const mcpArgs = ['--mcp-config', claudeMcpConfig('x', mcp.url), '--allowedTools', 'mcp__x__ping'];
    const args = ['-p', 'ping', ...base, ...mcpArgs];
    const run = await runCli(await sandbox('claude'), args);
    expectSuccess(run);
    expect(modelRequest(0).toolNames).toContain('mcp__x__ping');
    expect(mcp.calls).toEqual([{ tool: 'ping', args: { text: 'hi' } }]);
    expect(modelRequest(1).toolResults[0]?.content).toBe('echo: hi');
  });
});

describe('codex (real binary)', () => {
  const base = ['exec', '--json', '--skip-git-repo-check', '-s', 'workspace-write'];
  const agentText = (run: CliRun) =>
    eventsOfType(run, 'item.completed')
      .map((event) => event.item as Record<string, unknown>)
      .filter((item) => item.type === 'agent_message')
      .map((item) => item.text)
      .at(-1);

  it('answers a text turn with the scripted text', async () => {
    const run = await runCli(await sandbox('codex'), [...base, 'say hi']);
    expectSuccess(run);
    expect(agentText(run)).toBe(DEFAULT_TEXT);
    expect(eventsOfType(run, 'turn.completed')).toHaveLength(1);
    expect(modelRequest(0)).toMatchObject({ api: 'openai', model: CODEX_MODEL, lastUserText: 'say hi' });
  });

  it('runs a shell command and sends its output back', async () => {
    mock.reset(toolThenText({ call: shellToolCall('codex', HELLO) }));
    const run = await runCli(await sandbox('codex'), [...base, 'run echo hello']);
    expectSuccess(run);
    const command = eventsOfType(run, 'item.completed').find((event) => (event.item as Record<string, unknown>).type === 'command_execution');
    expect(command?.item).toMatchObject({ aggregated_output: 'hello\n', exit_code: 0 });
    // codex wraps the output ("Chunk ID: ...\nOutput:\nhello").
    expect(modelRequest(1).toolResults[0]?.content).toMatch(/Output:\nhello\n/);
  });

  it('resumes a thread with its history', async () => {
    mock.reset(echoScript);
    const env = await sandbox('codex');
    const first = await runCli(env, [...base, 'first prompt']);
    const threadId = eventsOfType(first, 'thread.started')[0]?.thread_id;
    expect(threadId).toEqual(expect.any(String));
    // exec options (-s, -C, -c...) go before `resume`; the resume subcommand rejects -s.
    const second = await runCli(env, [...base, 'resume', String(threadId), 'second prompt']);
    expectSuccess(second);
    expect(eventsOfType(second, 'thread.started')[0]?.thread_id).toBe(threadId);
    expect(agentText(second)).toBe('You said: second prompt');
    const history = JSON.stringify(modelRequest(1).messages);
    expect(history).toContain('first prompt');
    expect(history).toContain('You said: first prompt');
  });

  it('adds developer_instructions to the system prompt', async () => {
    const args = [...base, '-c', 'developer_instructions="BRIDGE-RULES-42"', 'hi'];
    const run = await runCli(await sandbox('codex'), args);
    expectSuccess(run);
    expect(modelRequest(0).system).toContain('BRIDGE-RULES-42');
  });

  it('waits on a held reply until it is killed', async () => {
    mock.reset(() => ({ text: 'too late', delayMs: Number.POSITIVE_INFINITY }));
    const env = await sandbox('codex');
    const options = { env: env.env, extendEnv: false, cwd: env.workdir, stdin: 'ignore', reject: false } as const;
    const child = execa(env.command, [...base, 'hi'], options);
    await vi.waitFor(() => expect(mock.modelRequests).toHaveLength(1), { timeout: 10_000 });
    child.kill('SIGTERM');
    const result = await child;
    // codex does not trap SIGTERM: it dies by the signal, with no reply printed.
    expect(result.signal).toBe('SIGTERM');
    expect(result.stdout).not.toContain('too late');
  });

  it('calls an MCP tool configured with -c mcp_servers', async () => {
    mock.reset(toolThenText({ call: { name: 'mcp__x__ping', input: { text: 'hi' } } }));
    const run = await runCli(await sandbox('codex'), [...base, ...codexMcpArgs('x', mcp.url), 'ping']);
    expectSuccess(run);
    // gpt-5.5 defers MCP tools behind tool_search: only the namespace is announced up front.
    expect(modelRequest(0).system).toContain('mcp__x');
    expect(mcp.calls).toEqual([{ tool: 'ping', args: { text: 'hi' } }]);
    expect(modelRequest(1).toolResults[0]?.content).toContain('echo: hi');
  });
});

describe('droid (real binary)', () => {
  const base = ['exec', '-m', DROID_MODEL, '--output-format', 'stream-json'];
  const completion = (run: CliRun) => eventsOfType(run, 'completion').at(-1);

  it('answers a text turn with the scripted text', async () => {
    const run = await runCli(await sandbox('droid'), [...base, 'say hi']);
    expectSuccess(run);
    expect(completion(run)).toMatchObject({ finalText: DEFAULT_TEXT });
    expect(modelRequest(0)).toMatchObject({ api: 'anthropic', model: DROID_WIRE_MODEL, lastUserText: 'say hi' });
  });

  it('runs Execute and sends the tool result back', async () => {
    mock.reset(toolThenText({ call: shellToolCall('droid', HELLO) }));
    const run = await runCli(await sandbox('droid'), [...base, 'run echo hello']);
    expectSuccess(run);
    expect(eventsOfType(run, 'tool_result')[0]).toMatchObject({ toolId: 'Execute', isError: false });
    expect(modelRequest(1).toolResults[0]?.content).toMatch(/^hello\n/);
  });

  it('resumes a session with its history', async () => {
    mock.reset(echoScript);
    const env = await sandbox('droid');
    const first = await runCli(env, [...base, 'first prompt']);
    const sessionId = completion(first)?.session_id;
    expect(sessionId).toEqual(expect.any(String));
    const second = await runCli(env, [...base, '-s', String(sessionId), 'second prompt']);
    expectSuccess(second);
    expect(completion(second)).toMatchObject({ finalText: 'You said: second prompt', session_id: sessionId });
    const history = JSON.stringify(modelRequest(1).messages);
    expect(history).toContain('first prompt');
    expect(history).toContain('You said: first prompt');
  });

  it('appends --append-system-prompt to the system prompt', async () => {
    const run = await runCli(await sandbox('droid'), [...base, '--append-system-prompt', 'BRIDGE-RULES-42', 'hi']);
    expectSuccess(run);
    expect(modelRequest(0).system).toContain('BRIDGE-RULES-42');
  });

  it('calls an MCP tool from ~/.factory/mcp.json as x___ping', async () => {
    mock.reset(toolThenText({ call: { name: 'x___ping', input: { text: 'hi' } } }));
    const env = await sandbox('droid');
    await writeDroidMcpConfig(env.home, 'x', mcp.url);
    // MCP tools need --auto high (lower levels end the run with exit 1).
    const run = await runCli(env, [...base, '--auto', 'high', 'ping']);
    expectSuccess(run);
    expect(mcp.calls).toEqual([{ tool: 'ping', args: { text: 'hi' } }]);
    expect(modelRequest(1).toolResults[0]?.content).toBe('echo: hi');
  });
});
