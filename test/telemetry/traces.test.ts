import { afterEach, describe, expect, it } from 'vitest';
import { OtlpCollector, type ReceivedSpan } from '../support/otlp-collector.ts';
import { spanProblems } from '../support/span-attributes.ts';
import { REFUSING_PORT } from '../support/free-port.ts';
import { OWNER, ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The bridge as users run it, exporting its traces over OTLP/HTTP (http/json) to a stand-in
// collector, while a chat drives turns through the fake Bot API and the fake CLI.
let world: TelegramWorld | undefined;
let collector: OtlpCollector | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && world) console.error(world.bridge.log());
  await world?.stop();
  await collector?.close();
  world = collector = undefined;
});

const { say, waitText } = ownerIn(() => world!, OWNER);
/** The collector's token, as operators set it: it authenticates the bridge, and no CLI may see it. */
const HEADER_TOKEN = 'otlp-header-token-4f1c9a7e';

async function tracedWorld(extra: Record<string, string> = {}): Promise<TelegramWorld> {
  collector = await OtlpCollector.start();
  return startTelegramWorld({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${HEADER_TOKEN}`,
    // Sent within a tenth of a second of ending, not the SDK's five: the test waits for them.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    ...extra,
  });
}

/** The ended turn whose root span is `invoke_agent`, with every span of its trace. */
async function turnTrace(outcome: string): Promise<{ root: ReceivedSpan; spans: ReceivedSpan[] }> {
  const root = await collector!.waitFor((spans) =>
    spans.find((span) => span.name.startsWith('invoke_agent ') && span.attributes['jsonl_bridge.outcome'] === outcome),
  );
  // The root ends last: its children were sent with it or before.
  return { root, spans: collector!.spans.filter((span) => span.traceId === root.traceId) };
}

describe('traces of turns', () => {
  it('a turn is one trace from the message to the answer: the agent, its tool calls, the delivery, with the GenAI names', async () => {
    world = await tracedWorld();
    say('tools:2 bash:printenv+OTEL_EXPORTER_OTLP_HEADERS say:all-done');
    await waitText(/all-done/);
    const { root, spans } = await turnTrace('completed');

    expect(root.parentSpanId).toBeUndefined();
    expect(root.name).toBe('invoke_agent claude');
    expect(root.resource['service.name']).toBe('jsonl-bridge');
    expect(root.resource['service.instance.id']).toMatch(/^[\da-f-]{36}$/);
    expect(root.status.code).toBe(0);
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.agent.name': 'claude',
      'gen_ai.response.model': 'fake-model',
      'jsonl_bridge.work': 'turn',
      'jsonl_bridge.chat': `telegram:${OWNER}`,
      'jsonl_bridge.tool_calls': 3,
    });
    const [cli] = await world.cli.invocations();
    expect(root.attributes['gen_ai.conversation.id']).toBe(cli!.session);
    expect(root.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
    expect(root.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    expect(root.events.map((event) => event.name)).toContain('started');

    const tools = spans.filter((span) => span.name === 'execute_tool Bash');
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id']).sort()).toEqual(['toolu_fake_1', 'toolu_fake_2', 'toolu_fake_bash']);
    for (const tool of tools) {
      expect(tool.parentSpanId).toBe(root.spanId);
      expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'Bash' });
    }
    const delivery = spans.find((span) => span.name === 'deliver answer');
    expect(delivery).toMatchObject({ parentSpanId: root.spanId, attributes: { 'jsonl_bridge.transport': 'telegram' } });

    // The collector got the headers the operator set, and the CLI none of OTEL_*: its command printed nothing of them.
    expect(collector!.requests[0]!.headers.authorization).toBe(`Bearer ${HEADER_TOKEN}`);
    expect(cli!.envNames.filter((name) => name.startsWith('OTEL_'))).toEqual([]);
    expect(spanProblems(spans, ['printenv', 'all-done', 'echo step', HEADER_TOKEN, world.workdir, world.dataDir])).toEqual([]);
  });

  it('a busy chat (a steer, an interrupt, a run): every span says only names, ids, counts, models and outcomes', async () => {
    world = await tracedWorld();
    say('tools:3 pace:400 first-private-words');
    // At work on a tool: its CLI has shown by then that it takes messages while it works.
    await world.telegram.waitFor(() => world!.telegram.botMessages(OWNER).find((m) => /claude/.test(m.text ?? '') && /Bash/.test(m.text ?? '')));
    say('steered-private-words');
    await waitText(/first-private-words/);
    say('/busy interrupt');
    await waitText(/Busy mode: interrupt/);
    say('hang second-private-words');
    await expect.poll(async () => (await world!.cli.hanging()).length, { timeout: 20_000 }).toBe(1);
    say('interrupting-private-words');
    await waitText(/interrupting-private-words/);
    say('/spawn --label Job "tools:1 say:run-private-words"');
    await waitText(/^✅ #1 Job/);

    const run = await collector!.waitFor((spans) =>
      spans.find((span) => span.attributes['jsonl_bridge.work'] === 'run' && span.name === 'invoke_agent claude'),
    );
    expect(run).toMatchObject({ parentSpanId: undefined, attributes: { 'jsonl_bridge.outcome': 'completed', 'jsonl_bridge.tool_calls': 1 } });
    const runTool = await collector!.waitFor((spans) => spans.find((span) => span.traceId === run.traceId && span.name === 'execute_tool Bash'));
    expect(runTool.parentSpanId).toBe(run.spanId);
    // Its announcement, sent by the outbox once its record is saved, is delivered in its trace.
    const announced = await collector!.waitFor((spans) => spans.find((span) => span.traceId === run.traceId && span.name === 'deliver answer'));
    expect(announced).toMatchObject({ parentSpanId: run.spanId, attributes: { 'jsonl_bridge.transport': 'telegram' } });
    const events = collector!.spans.flatMap((span) => span.events.map((event) => event.name));
    expect(events).toEqual(expect.arrayContaining(['steered', 'interrupted']));
    const stopped = await collector!.waitFor((spans) => spans.find((span) => span.attributes['jsonl_bridge.outcome'] === 'stopped'));
    expect(stopped.status.code).toBe(0);
    // Every attribute of every span, against what the bridge may record, and none holding what was said, a path or the token.
    const said = ['first-private-words', 'steered-private-words', 'second-private-words', 'interrupting-private-words', 'run-private-words', 'echo step'];
    expect(spanProblems(collector!.spans, [...said, HEADER_TOKEN, world.workdir, world.dataDir])).toEqual([]);
  });

  it('a turn whose CLI crashes is an ERROR span with a short reason of the bridge’s, never the CLI’s stderr', async () => {
    world = await tracedWorld();
    say('tools:1 crash:3');
    await waitText(/exited with code 3/);
    const { root, spans } = await turnTrace('failed');
    expect(root.status).toEqual({ code: 2, message: 'the CLI exited with code 3' });
    expect(root.attributes['error.type']).toBe('crash');
    expect(spanProblems(spans, ['crashed on purpose', 'crash:3'])).toEqual([]);
  });

  it('a turn that times out (its CLI silent) is an ERROR span', async () => {
    world = await tracedWorld({ BRIDGE_SILENCE_SECONDS: '2' });
    say('tools:1 hang');
    const { root } = await turnTrace('timed_out');
    expect(root.status).toEqual({ code: 2, message: 'timed out' });
    expect(root.attributes['error.type']).toBe('timeout');
    await waitText(/⌛/);
  });

  it('with the collector unreachable, turns still answer, and the log says so once', async () => {
    world = await startTelegramWorld({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${REFUSING_PORT}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      // The exporter's retries give up within this: the failure is said sooner than the SDK's ten seconds.
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
    });
    say('say:first');
    await waitText(/first/);
    await world.bridge.waitForLog(/exporting traces failed/, 30_000);
    say('say:second');
    await waitText(/second/);
    say('say:third');
    await waitText(/third/);
    expect(world.bridge.log().match(/exporting traces failed/g)).toHaveLength(1);
  });

  it("a stopping bridge sends its spans before it exits, however long the SDK's batch would wait", async () => {
    world = await tracedWorld({ OTEL_BSP_SCHEDULE_DELAY: '600000' });
    say('tools:1 say:before-the-stop');
    await waitText(/before-the-stop/);
    expect(collector!.spans).toEqual([]);
    world.bridge.kill('SIGTERM');
    await world.bridge.exited;
    expect(collector!.spans.map((span) => span.name).sort()).toEqual(['deliver answer', 'execute_tool Bash', 'invoke_agent claude']);
  });

  it('with OTEL_SDK_DISABLED, nothing is exported, though an endpoint is set', async () => {
    collector = await OtlpCollector.start();
    world = await startTelegramWorld({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' });
    say('tools:1 say:untraced');
    await waitText(/untraced/);
    expect(world.bridge.log()).not.toMatch(/exporting traces/);
    world.bridge.kill('SIGTERM');
    await world.bridge.exited;
    expect(collector.requests).toEqual([]);
  });
});
