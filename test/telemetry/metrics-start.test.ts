import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLogLine, startBridgeProcess, startWorkerProcess, tempDir } from '../support/bridge-process.ts';
import { freePort } from '../support/free-port.ts';
import { scrape } from '../support/prometheus.ts';
import { TEST_QUEUE_SECRET } from '../support/queue-world.ts';
import { startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The metrics' settings at the start: a bad one stops the bridge or the worker with one line
// (exit 78, the setup's to fix), and OTEL_SDK_DISABLED turns them off.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

async function exitOf(start: typeof startBridgeProcess, env: Record<string, string>) {
  const data = await tempDir('bridge-data-');
  try {
    const child = start({ BRIDGE_DATA_DIR: data.path, TELEGRAM_BOT_TOKEN: '123:abc-0000000000000000000000000000000', ...env });
    const exit = await child.exited;
    return { code: exit.code, stderr: child.stderr().trim() };
  } finally {
    await data.remove();
  }
}

describe('the metrics settings at the start', () => {
  it('a bad value stops the bridge and a worker with one line naming the variable, exit 78', async () => {
    const bridge = await exitOf(startBridgeProcess, { BRIDGE_METRICS_ADDR: 'everywhere' });
    expect(bridge).toEqual({ code: 78, stderr: 'jsonl-bridge: BRIDGE_METRICS_ADDR: expected host:port, like 0.0.0.0:9464, got "everywhere"' });
    const worker = await exitOf(startWorkerProcess, {
      BRIDGE_REDIS_URL: 'redis://127.0.0.1:1',
      BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(worker.code).toBe(78);
    expect(worker.stderr).toMatch(
      /^jsonl-bridge worker: OTEL_EXPORTER_OTLP_PROTOCOL: expected http\/protobuf or http\/json, got "grpc" \(gRPC is not supported[^\n]*$/,
    );
  });

  it('BRIDGE_METRICS_ADDR taken: the bridge and a worker say so in one fatal line, exit 78', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const worker = await exitOf(startWorkerProcess, {
        BRIDGE_REDIS_URL: 'redis://127.0.0.1:1',
        BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
        BRIDGE_METRICS_ADDR: `127.0.0.1:${port}`,
      });
      expect(worker.code).toBe(78);
      const fatal = worker.stderr
        .split('\n')
        .map(parseLogLine)
        .filter((line) => line?.level === 'fatal');
      expect(fatal).toEqual([expect.objectContaining({ msg: `BRIDGE_METRICS_ADDR: cannot listen on 127.0.0.1:${port}: the port is in use` })]);
    } finally {
      taken.close();
    }
  });

  it('OTEL_SDK_DISABLED=true: nothing is recorded or served, and /metrics says why', async () => {
    const port = await freePort();
    world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, OTEL_SDK_DISABLED: 'true' });
    await world.bridge.waitForLog(/metrics are off \(OTEL_SDK_DISABLED=true\)/);
    await world.bridge.waitForLog(/dashboard on /);
    expect(await scrape(`http://127.0.0.1:${port}/metrics`)).toMatchObject({ status: 404, body: 'Metrics are off: OTEL_SDK_DISABLED=true.\n' });
    expect(world.bridge.log()).not.toMatch(/metrics on http/);
  });
});
