import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createApp, type App } from '../src/app/create-app.ts';
import { loadConfig } from '../src/app/config.ts';
import { ChatStore } from '../src/kernel/store/chat-store.ts';
import { startWorkerProcess, type BridgeProcess } from '../test/support/bridge-process.ts';
import { FAKE_AGENT, fakeCliWorld, type FakeCliWorld } from '../test/support/fake-cli.ts';
import { RecordingOutbound } from '../test/support/recording-outbound.ts';
import { startRedis } from '../test/support/redis-server.ts';
import { TEST_QUEUE_SECRET } from '../test/support/queue-world.ts';
import type { BenchResult } from './report.ts';
import { silentLog } from '../test/support/silent-log.ts';
import { chat } from '../test/support/chats.ts';

const RUNS = 200;
const CHATS = 50;
const WORKERS = 2;
/**
 * Runs in flight at once: by default 8, under every limit and what two workers keep at once, so
 * no run waits for a slot. Each is a CLI starting, so on a small machine the
 * figure is mostly that many start-ups sharing its cores: BENCH_WORKERS_IN_FLIGHT=1 shows a lone one.
 */
function inFlight(text: string | undefined): number {
  if (text === undefined) return 8;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new Error(`BENCH_WORKERS_IN_FLIGHT must be a whole number from 1 to 16 (the default limit of runs at once), not "${text}"`);
  return n;
}

/**
 * The same 200 runs of the fake CLI, executed in the bridge's process and then by two local
 * worker processes through a real redis-server: how much later a run's CLI starts after
 * `/spawn` (p50, p99), and what a run costs the bridge's CPU, with their ratios, from one
 * run of the bench.
 */
export async function benchWorkers(dir: string): Promise<BenchResult[]> {
  const atOnce = inFlight(process.env.BENCH_WORKERS_IN_FLIGHT);
  const embedded = await measure(join(dir, 'embedded'), atOnce, {});
  const redis = await startRedis();
  let queued: Measured;
  try {
    queued = await measure(join(dir, 'queued'), atOnce, { BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET });
  } finally {
    await redis.stop();
  }
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return [
    {
      suite: 'workers',
      name: '/spawn → CLI start, embedded',
      value: embedded.p50,
      unit: 'ms',
      note: `p50, ${atOnce} at once; p99 ${embedded.p99} ms; to its process p50 ${embedded.toProcessP50} ms, the rest the CLI’s own start-up (Node, here)`,
    },
    {
      suite: 'workers',
      name: `/spawn → CLI start, ${WORKERS} workers`,
      value: queued.p50,
      unit: 'ms',
      note: `p50; p99 ${queued.p99} ms; added p50 ${queued.p50 - embedded.p50} ms, p99 ${queued.p99 - embedded.p99} ms`,
    },
    { suite: 'workers', name: 'bridge CPU per run, embedded', value: embedded.cpuPerRunMs, unit: 'ms', note: 'spawning and reading the CLI here' },
    {
      suite: 'workers',
      name: `bridge CPU per run, ${WORKERS} workers`,
      value: queued.cpuPerRunMs,
      unit: 'ms',
      note: `ratio ${ratio(queued.cpuPerRunMs, embedded.cpuPerRunMs)} to embedded; the CLIs run in the workers`,
    },
    { suite: 'workers', name: `${RUNS} runs, wall time ratio`, value: ratio(queued.wallMs, embedded.wallMs), unit: '×', note: `${WORKERS} workers ÷ embedded` },
  ];
}

interface Measured {
  p50: number;
  p99: number;
  /** The bridge's part of the p50: from /spawn to the CLI's process beginning. */
  toProcessP50: number;
  cpuPerRunMs: number;
  wallMs: number;
}

/** The bridge in this process with its real configuration (the claude adapter, pointed at the fake CLI), and the workers beside it. */
async function measure(dataDir: string, atOnce: number, extraEnv: Record<string, string>): Promise<Measured> {
  // Beside its data directory, not in it: a worker refuses a project where its state is.
  const workdir = `${dataDir}-work`;
  await mkdir(dataDir, { recursive: true });
  await mkdir(workdir, { recursive: true });
  const cli = await fakeCliWorld();
  const env: Record<string, string> = {
    // The bridge's own costs, as the tests' config measures them: the walls' are the sandbox bench's.
    BRIDGE_SANDBOX: 'off',
    ...(cli.env as Record<string, string>),
    ...extraEnv,
    BRIDGE_DATA_DIR: dataDir,
    BRIDGE_WORKDIR: workdir,
    BRIDGE_CLAUDE_COMMAND: FAKE_AGENT,
  };
  const config = await loadConfig({ env });
  const out = new RecordingOutbound();
  const app = await createApp({ config, store: await ChatStore.open(dataDir), out, log: silentLog() });
  await app.start();
  const workers: BridgeProcess[] = [];
  try {
    if (env.BRIDGE_REDIS_URL) {
      for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess({ ...env, BRIDGE_WORKER_NAME: `bench-${i}` }));
      await Promise.all(workers.map((worker) => worker.waitForLog(/taking work from/)));
    }
    return await spawnAll(app, workdir, out, atOnce, () => cli.invocations());
  } finally {
    await app.shutdown();
    await Promise.all(
      workers.map(async (worker) => {
        worker.kill('SIGTERM');
        await worker.exited;
      }),
    );
    await cli.cleanup();
  }
}

/** Spawns RUNS runs, `atOnce` at a time, each waiting for its announcement before the next. */
async function spawnAll(app: App, cwd: string, out: RecordingOutbound, atOnce: number, invocations: FakeCliWorld['invocations']): Promise<Measured> {
  const spawnedAt = new Map<string, number>();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < RUNS) {
      const i = next++;
      const label = `bench-run-${i}`;
      const announced = out.sent.length;
      spawnedAt.set(label, Date.now());
      const result = await app.subagents.spawner.spawn(
        { task: `say:${label}` },
        { address: chat(-(i % CHATS) - 1), requester: { kind: 'user', userId: '1' }, cwd, cli: 'claude', depth: 0 },
      );
      if (!result.ok) throw new Error(result.error);
      const { runId } = result.run;
      let announcement: string | undefined;
      while (!(announcement = out.sent.slice(announced).find((m) => m.text.includes(runId))?.text)) await new Promise((resolve) => setTimeout(resolve, 20));
      if (!announcement.startsWith('✅')) throw new Error(`run ${i} did not complete: ${announcement}`);
    }
  };
  await Promise.all(Array.from({ length: atOnce }, lane));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const calls = (await invocations()).flatMap((call) => {
    const label = /say:(bench-run-\d+)/.exec(call.prompt)?.[1];
    return label ? [{ started: call.startedAt - spawnedAt.get(label)!, launched: call.launchedAt - spawnedAt.get(label)! }] : [];
  });
  if (calls.length !== RUNS) throw new Error(`${calls.length} of ${RUNS} runs started their CLI`);
  const latencies = calls.map((call) => call.started).sort((a, b) => a - b);
  const toProcess = calls.map((call) => call.launched).sort((a, b) => a - b);
  const at = (q: number, values = latencies) => values[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  return { p50: at(0.5), p99: at(0.99), toProcessP50: at(0.5, toProcess), cpuPerRunMs: Math.round((cpu.user + cpu.system) / RUNS / 100) / 10, wallMs };
}
