import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { START_WAIT_MS, startWorkerProcess, type BridgeProcess } from '../support/bridge-process.ts';
import { freePort } from '../support/free-port.ts';
import { dashboardMetrics, unboundedLabels } from '../support/metric-labels.ts';
import { promtoolProblems, samples, scrape, total } from '../support/prometheus.ts';
import { addWorkers, endQueueTest, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn, startTelegramWorld } from '../support/telegram-world.ts';

// The bridge and a worker as users run them, on a real redis-server, scraped over HTTP after a
// turn, a run on the worker and a webhook delivery: what Prometheus and the dashboard will read.
let redis: RedisServer;
let world: QueueWorld | undefined;
let worker: BridgeProcess | undefined;
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis?.stop());
afterEach(async (context) => {
  worker?.kill('SIGTERM');
  await worker?.exited;
  worker = undefined;
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  world = undefined;
});

const CHAT = OWNER;
const { say, waitText } = ownerIn(() => world!, CHAT);
const DASHBOARD = new URL('../../docs/grafana/jsonl-bridge.json', import.meta.url);

describe('metrics of the bridge and its workers', () => {
  it('after a turn, a run on a worker and a webhook, the series moved, promtool takes them, every label is bounded, and the dashboard names only what is there', async () => {
    const [webPort, bridgeMetricsPort, workerMetricsPort] = [await freePort(), await freePort(), await freePort()];
    const hooks = { hooks: { ci: { chat: String(CHAT), prompt: 'say:hooked', signature: 'bearer', secret: 'a-secret-of-enough-characters' } } };
    const base = await startTelegramWorld(
      {
        BRIDGE_REDIS_URL: redis.url,
        BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
        BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
        BRIDGE_WEB_ADDR: `127.0.0.1:${webPort}`,
        BRIDGE_METRICS_ADDR: `127.0.0.1:${bridgeMetricsPort}`,
      },
      { dataFiles: { 'hooks.json': JSON.stringify(hooks) } },
    );
    world = await addWorkers(base, redis, []);
    await world.bridge.waitForLog(new RegExp(`metrics on http://127\\.0\\.0\\.1:${webPort}/metrics \\(to this machine only`));
    await world.bridge.waitForLog(new RegExp(`metrics on http://127\\.0\\.0\\.1:${bridgeMetricsPort}/metrics`));
    const { TELEGRAM_BOT_TOKEN: _token, TELEGRAM_API_ROOT: _root, BRIDGE_METRICS_ADDR: _own, BRIDGE_WEB_ADDR: _web, ...workerEnv } = world.env;
    worker = startWorkerProcess({ ...workerEnv, BRIDGE_WORKER_NAME: 'w1', BRIDGE_METRICS_ADDR: `127.0.0.1:${workerMetricsPort}` });
    await worker.waitForLog(/taking work from/, START_WAIT_MS);
    await worker.waitForLog(new RegExp(`metrics on http://127\\.0\\.0\\.1:${workerMetricsPort}/metrics`));

    say('hello with words no metric may hold');
    await waitText(/^echo: hello with words/);
    say('/spawn --label Remote "say:from-a-worker"');
    await waitText(/^✅ #1 Remote/);
    const refused = await fetch(`http://127.0.0.1:${webPort}/hooks/ci`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(401);

    const web = await scrape(`http://127.0.0.1:${webPort}/metrics`);
    expect(web.status).toBe(200);
    expect(web.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const own = await scrape(`http://127.0.0.1:${bridgeMetricsPort}/metrics`);
    expect(own.status).toBe(200);
    const fromWorker = await scrape(`http://127.0.0.1:${workerMetricsPort}/metrics`);
    expect(fromWorker.status).toBe(200);
    for (const body of [web.body, own.body, fromWorker.body]) expect(await promtoolProblems(body)).toBe('');

    const bridge = web.body;
    const turn = { cli: 'claude', jsonl_bridge_work: 'turn' };
    expect(total(bridge, 'jsonl_bridge_turns_started_total', turn)).toBe(1);
    expect(total(bridge, 'jsonl_bridge_turns_ended_total', { ...turn, outcome: 'completed' })).toBe(1);
    expect(total(bridge, 'jsonl_bridge_turn_duration_count', { ...turn, outcome: 'completed' })).toBe(1);
    expect(total(bridge, 'jsonl_bridge_runs_started_total', { cli: 'claude' })).toBe(1);
    expect(total(bridge, 'jsonl_bridge_runs_ended_total', { cli: 'claude', outcome: 'completed' })).toBe(1);
    expect(total(bridge, 'jsonl_bridge_run_duration_count')).toBe(1);
    // The fake CLI's turn: 10 input and 5 output tokens, a tenth of a cent.
    expect(total(bridge, 'gen_ai_client_token_usage_sum', { ...turn, gen_ai_token_type: 'output' })).toBe(5);
    expect(total(bridge, 'gen_ai_client_token_usage_sum', { ...turn, gen_ai_token_type: 'input' })).toBe(10);
    expect(total(bridge, 'jsonl_bridge_cost_total', turn)).toBeCloseTo(0.001);
    expect(total(bridge, 'jsonl_bridge_chat_app_calls_total', { transport: 'telegram', outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(total(bridge, 'jsonl_bridge_chat_app_send_wait_count', { transport: 'telegram' })).toBeGreaterThanOrEqual(2);
    expect(samples(bridge).find((s) => s.name === 'jsonl_bridge_chat_app_rate_limits_total')).toMatchObject({ labels: { transport: 'telegram' }, value: 0 });
    expect(total(bridge, 'jsonl_bridge_webhook_deliveries_total', { http_response_status_code: '401', decision: 'refused' })).toBe(1);
    expect(total(bridge, 'jsonl_bridge_workers_connected')).toBe(1);
    expect(total(bridge, 'jsonl_bridge_queue_jobs', { state: 'waiting' })).toBe(0);
    expect(samples(bridge).some((s) => s.name === 'jsonl_bridge_worker_lag')).toBe(true);
    expect(samples(bridge).some((s) => s.name === 'jsonl_bridge_cli_processes')).toBe(true);
    expect(total(bridge, 'jsonl_bridge_approvals_waiting')).toBe(0);
    expect(bridge).toMatch(/^target_info\{.*service_name="jsonl-bridge".*service_instance_id="[\w-]{36}"/m);
    // The run's wait for a worker (the bridge's); the worker's own: what is at work there, and who it is.
    expect(total(bridge, 'jsonl_bridge_queue_wait_count')).toBe(1);
    expect(total(fromWorker.body, 'jsonl_bridge_worker_runs')).toBe(0);
    expect(fromWorker.body).toMatch(/^target_info\{.*service_name="jsonl-bridge-worker"/m);

    const all = [...samples(bridge), ...samples(own.body), ...samples(fromWorker.body)];
    expect(unboundedLabels(all)).toEqual([]);
    for (const body of [bridge, fromWorker.body]) {
      expect(body).not.toContain('words no metric');
      expect(body).not.toContain(world.dataDir);
      expect(body).not.toContain(world.env.TELEGRAM_BOT_TOKEN!);
      expect(body).not.toContain(redis.password);
    }
    const named = dashboardMetrics(JSON.parse(await readFile(DASHBOARD, 'utf8')));
    expect(named.length).toBeGreaterThan(15);
    const scraped = new Set(all.map((sample) => sample.name));
    expect(named.filter((name) => !scraped.has(name))).toEqual([]);
  });
});
