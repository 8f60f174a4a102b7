import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import type { TurnOutcome } from '../../src/engine/session/running-turn.ts';
import { AgentSpans } from '../../src/services/telemetry/traced-agent.ts';
import { carrierOf, contextOf } from '../../src/services/telemetry/trace-context.ts';
import type { AttributeValue, ReceivedSpan } from '../support/otlp-collector.ts';
import { spanProblems } from '../support/span-attributes.ts';

// The spans of one agent's work, made in this process and read back from the SDK's own
// in-memory exporter: what they say of a busy turn, and what they never say.
const exported = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exported)] });
// The process's one global provider while this file runs, and nobody's after it: test files share their worker's process.
beforeAll(() => {
  trace.disable();
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});
beforeEach(() => exported.reset());

const PROMPT = 'deploy with password hunter2-very-secret to /home/ada/project';
const SECRET_COMMAND = 'curl -H "Authorization: Bearer sk-live-0123456789abcdef" https://internal/api';
const PATH = '/home/ada/project/.env';

/** A busy turn's events: a session, text, tool calls (one inside another, one failing), a permission, usage, a result. */
const BUSY: AgentEvent[] = [
  { type: 'started', sessionId: 'sess-0001', model: 'claude-sonnet-4-5', cwd: PATH },
  { type: 'text', text: PROMPT },
  { type: 'tool_start', id: 'toolu_task', name: 'Task', input: { prompt: PROMPT } },
  { type: 'tool_start', id: 'toolu_read', name: 'Read', input: { file_path: PATH }, parentId: 'toolu_task' },
  { type: 'tool_end', id: 'toolu_read', isError: false, preview: 'OPENAI_API_KEY=sk-secret-in-file', parentId: 'toolu_task' },
  { type: 'tool_end', id: 'toolu_task', isError: false, preview: PROMPT },
  { type: 'tool_start', id: 'toolu_bash', name: 'Bash', input: { command: SECRET_COMMAND } },
  { type: 'permission', requestId: 'req-1', tool: 'Bash', input: { command: SECRET_COMMAND }, toolUseId: 'toolu_bash' },
  { type: 'tool_end', id: 'toolu_bash', isError: true, preview: `bash: ${PATH}: Permission denied` },
  { type: 'usage', usage: { inputTokens: 100, outputTokens: 20 }, model: 'claude-sonnet-4-5', messageId: 'msg-1' },
  { type: 'error', message: `could not read ${PATH}` },
  { type: 'tool_start', id: 'toolu_left', name: 'mcp__jsonl-bridge__spawn_subagent', input: { task: PROMPT } },
  { type: 'result', text: PROMPT, isError: false, sessionId: 'sess-0001', usage: { inputTokens: 120, outputTokens: 30 }, costUsd: 0.0123 },
];

const outcome = (patch: Partial<TurnOutcome> = {}): TurnOutcome => ({
  status: 'completed',
  text: PROMPT,
  sessionId: 'sess-0001',
  exit: { type: 'exit', code: 0, signal: null },
  durationMs: 1200,
  ...patch,
});

function received(span: ReadableSpan): ReceivedSpan {
  const plain = (attributes: Record<string, unknown>) => attributes as Record<string, AttributeValue>;
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: span.kind,
    attributes: plain(span.attributes),
    events: span.events.map((event) => ({ name: event.name, attributes: plain(event.attributes ?? {}) })),
    status: { code: span.status.code, ...(span.status.message ? { message: span.status.message } : {}) },
    resource: {},
    scope: span.instrumentationScope.name,
  };
}

const spans = () => exported.getFinishedSpans().map(received);
const named = (name: string) => spans().find((span) => span.name === name)!;

function busyTurn(end: TurnOutcome): AgentSpans {
  const agent = AgentSpans.invoke({
    work: 'turn',
    cli: 'claude',
    provider: 'anthropic',
    model: 'sonnet',
    ids: { chat: 'telegram:111', turn: 'turn-01' },
  });
  agent.note('started');
  for (const event of BUSY) agent.observe(event);
  agent.note('steered');
  agent.note('interrupted');
  agent.outcome(end);
  return agent;
}

describe('the spans of an agent’s work', () => {
  it('a busy turn: the agent, each tool call under the one it ran in, the usage, the events, the delivery', async () => {
    const agent = busyTurn(outcome());
    await agent.delivering('telegram', async () => 'sent');
    agent.end();
    const root = named('invoke_agent claude');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'claude',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': 'sonnet',
      'gen_ai.response.model': 'claude-sonnet-4-5',
      'gen_ai.conversation.id': 'sess-0001',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'jsonl_bridge.work': 'turn',
      'jsonl_bridge.chat': 'telegram:111',
      'jsonl_bridge.turn.id': 'turn-01',
      'jsonl_bridge.outcome': 'completed',
      'jsonl_bridge.tool_calls': 4,
      'jsonl_bridge.cost_usd': 0.0123,
    });
    expect(root.events.map((event) => event.name)).toEqual(['started', 'steered', 'interrupted']);
    expect(named('execute_tool Task').parentSpanId).toBe(root.spanId);
    expect(named('execute_tool Read').parentSpanId).toBe(named('execute_tool Task').spanId);
    const bash = named('execute_tool Bash');
    expect(bash.status).toEqual({ code: 2, message: 'the tool reported an error' });
    expect(bash.events).toEqual([{ name: 'permission asked', attributes: { 'gen_ai.tool.name': 'Bash' } }]);
    // A call the CLI never finished ends with the turn, said so.
    expect(named('execute_tool mcp__jsonl-bridge__spawn_subagent').attributes['jsonl_bridge.outcome']).toBe('unfinished');
    expect(named('deliver answer')).toMatchObject({ parentSpanId: root.spanId, attributes: { 'jsonl_bridge.transport': 'telegram' } });
    expect(new Set(spans().map((span) => span.traceId)).size).toBe(1);
  });

  it('never records a text, a tool input or output, a path or a secret: every attribute is of an allowed key and shape', async () => {
    const failed = busyTurn(
      outcome({ status: 'failed', error: `claude exited with code 1: cannot open ${PATH}`, exit: { type: 'exit', code: 1, signal: null } }),
    );
    await expect(failed.delivering('slack', () => Promise.reject(new Error(`could not upload ${PATH}`)))).rejects.toThrow();
    failed.end();
    busyTurn(outcome({ status: 'timed_out', error: `no progress; last words: ${PROMPT}` })).end();
    busyTurn(outcome({ status: 'failed', exit: { type: 'exit', code: null, signal: 'SIGKILL' } })).end();
    busyTurn(outcome({ status: 'failed', result: { type: 'result', text: PROMPT, isError: true } })).end();
    busyTurn(outcome({ status: 'failed', limit: { kind: 'usage' }, error: PROMPT })).end();
    expect(spans().length).toBeGreaterThan(20);
    expect(spanProblems(spans(), ['hunter2', 'sk-live', 'sk-secret', '/home/ada', 'Permission denied', 'deploy with'])).toEqual([]);
  });

  it('a failure reads as an error status in the bridge’s own words, by kind', () => {
    const cases: [Partial<TurnOutcome>, string, string][] = [
      [{ status: 'timed_out' }, 'timeout', 'timed out'],
      [{ status: 'failed', exit: { type: 'exit', code: 3, signal: null } }, 'crash', 'the CLI exited with code 3'],
      [{ status: 'failed', exit: { type: 'exit', code: null, signal: 'SIGKILL' } }, 'crash', 'the CLI was killed by SIGKILL'],
      [{ status: 'failed', limit: { kind: 'rate' } }, 'quota_limit', "the CLI's rate limit"],
      [{ status: 'failed', result: { type: 'result', text: PROMPT, isError: true } }, 'cli_error', 'the CLI reported an error'],
    ];
    for (const [patch, type, message] of cases) {
      exported.reset();
      const agent = AgentSpans.invoke({ work: 'turn', cli: 'codex', provider: 'openai', ids: {} });
      agent.outcome(outcome(patch));
      agent.end();
      const [root] = spans();
      expect(root!.attributes['error.type']).toBe(type);
      expect(root!.status).toEqual({ code: 2, message });
      expect(root!.attributes['gen_ai.provider.name']).toBe('openai');
    }
    exported.reset();
    const stopped = AgentSpans.invoke({ work: 'turn', cli: 'claude', provider: 'anthropic', ids: {} });
    stopped.outcome(outcome({ status: 'stopped', error: 'stopped by Ada' }));
    stopped.end();
    expect(spans()[0]!.status.code).toBe(0);
  });

  it("a run's context crosses to a worker as a traceparent: the worker's span is its child, in its trace", () => {
    const bridge = AgentSpans.invoke({ work: 'run', cli: 'claude', provider: 'anthropic', ids: { run: 'run-0001' } });
    const carrier = carrierOf(bridge.context)!;
    expect(carrier.traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-01$/);
    const worker = AgentSpans.process({ work: 'run', cli: 'claude', provider: 'anthropic', ids: { run: 'run-0001' }, parent: contextOf(carrier)! }, 'w1');
    worker.end();
    bridge.end();
    const [onWorker, onBridge] = spans();
    expect(onWorker!.traceId).toBe(onBridge!.traceId);
    expect(onWorker!.parentSpanId).toBe(onBridge!.spanId);
    expect(contextOf({ traceparent: 'not-a-traceparent' })).toBeUndefined();
  });
});
