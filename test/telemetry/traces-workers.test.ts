import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OtlpCollector } from '../support/otlp-collector.ts';
import { spanProblems } from '../support/span-attributes.ts';
import { endQueueTest, startQueueWorld, type QueueWorld } from '../support/queue-world.ts';
import { redisContents, startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A run placed through a real redis-server on a real worker process: the worker's span joins
// the trace the bridge began for the run, through the context its sealed turn carries.
let redis: RedisServer;
let world: QueueWorld | undefined;
let collector: OtlpCollector | undefined;
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis?.stop());
afterEach(async (context) => {
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  await collector?.close();
  world = collector = undefined;
});

const { say, waitText } = ownerIn(() => world!, OWNER);

describe('traces of runs on workers', () => {
  it("a run on a worker is one trace: the bridge's invoke_agent, with the worker's process span and the CLI's tool calls under it", async () => {
    collector = await OtlpCollector.start();
    world = await startQueueWorld(redis, ['w1'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    say('/spawn --label Traced "tools:2 say:traced-on-a-worker"');
    await waitText(/^✅ #1 Traced/);

    const work = await collector.waitFor((spans) => {
      const bridge = spans.find((span) => span.name === 'invoke_agent claude' && span.attributes['jsonl_bridge.work'] === 'run');
      const worker = spans.find((span) => span.name === 'process sessions');
      return bridge && worker && { bridge, worker };
    });
    const { bridge, worker } = work;
    expect(bridge.resource['service.name']).toBe('jsonl-bridge');
    expect(worker.resource['service.name']).toBe('jsonl-bridge-worker');
    expect(worker.traceId).toBe(bridge.traceId);
    expect(worker.parentSpanId).toBe(bridge.spanId);
    expect(bridge.parentSpanId).toBeUndefined();
    expect(bridge.attributes).toMatchObject({ 'jsonl_bridge.outcome': 'completed', 'gen_ai.provider.name': 'anthropic' });
    expect(worker.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.response.model': 'fake-model',
      'messaging.system': 'jsonl_bridge',
      'messaging.operation.type': 'process',
      'jsonl_bridge.worker': 'w1',
      'jsonl_bridge.outcome': 'completed',
      'jsonl_bridge.tool_calls': 2,
    });
    const [cli] = await world.cli.invocations();
    expect(bridge.attributes['gen_ai.conversation.id']).toBe(cli!.session);

    const tools = await collector.waitFor((spans) => {
      const found = spans.filter((span) => span.name === 'execute_tool Bash' && span.traceId === bridge.traceId);
      return found.length === 2 && found;
    });
    for (const tool of tools) expect(tool.parentSpanId).toBe(bridge.spanId);
    // The context went in the turn, sealed with the rest for the worker: Redis shows nothing of it.
    expect(await redisContents(redis.url)).not.toContain(bridge.traceId);
    const trace = collector.spans.filter((span) => span.traceId === bridge.traceId);
    expect(spanProblems(trace, ['traced-on-a-worker', 'echo step', world.workdir, world.dataDir])).toEqual([]);
  });
});
