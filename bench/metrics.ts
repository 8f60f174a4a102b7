import { metrics } from '@opentelemetry/api';
import { silentLog } from '../test/support/silent-log.ts';
import { MetricsSdk } from '../src/services/telemetry/metrics.ts';
import type { MetricsConfig } from '../src/services/telemetry/metrics-settings.ts';
import { sendMeter } from '../src/services/telemetry/metrics-chat-apps.ts';
import { workEnded, workSpent, workStarted } from '../src/services/telemetry/metrics-work.ts';
import { emittedAt } from './fake-cli-results.ts';
import { percentile, startBenchBot } from './bot.ts';
import type { BenchResult } from './report.ts';

const OWNER = 7;
const ROUNDS = 5;
const TURNS_PER_ROUND = 20;
const RECORDS = 200_000;
const ON: MetricsConfig = { disabled: false, token: undefined, listen: undefined, otlp: undefined, secrets: [] };

/**
 * What the metrics cost a turn: the same bot (grammY to the fake Bot API, the fake CLI) with
 * the SDK installed and without (what OTEL_SDK_DISABLED=true leaves: the API's no-op),
 * alternating rounds in one run so the machine's drift falls on both; the bridge's CPU per
 * turn and the result line's way to the Bot API. Then the instruments alone (a turn's
 * records, in a loop), and what a scrape costs.
 */
export async function benchMetrics(dir: string): Promise<BenchResult[]> {
  const bot = await startBenchBot(dir, { env: { BRIDGE_ALLOWED_USERS: String(OWNER) } });
  const { telegram, cli, app } = bot;
  const cpu = { on: 0, off: 0 };
  const latency: Record<'on' | 'off', number[]> = { on: [], off: [] };
  let chat = -1;
  let scrapeMs = 0;
  let series = 0;
  try {
    const turn = async (mode: 'on' | 'off', i: number) => {
      const chatId = chat--;
      const text = `turn ${mode} ${i}`;
      const before = process.cpuUsage();
      telegram.sendText({ chatId, userId: OWNER, text, chatType: 'group' });
      const answer = await telegram.waitForCall('editMessageText', (c) => c.params.chat_id === chatId && String(c.params.text).startsWith('echo:'), 30_000);
      await app.bot.idle();
      const used = process.cpuUsage(before);
      cpu[mode] += (used.user + used.system) / 1000;
      latency[mode].push(answer.time - (await emittedAt(cli.env.FAKE_CLI_LOG!, text)));
    };
    for (let round = 0; round < ROUNDS; round++) {
      const sdk = await MetricsSdk.start(ON, 'jsonl-bridge');
      for (let i = 0; i < TURNS_PER_ROUND; i++) await turn('on', round * TURNS_PER_ROUND + i);
      const started = performance.now();
      const text = (await sdk.scrape())!;
      scrapeMs = performance.now() - started;
      series = text.split('\n').filter((line) => line && !line.startsWith('#')).length;
      await sdk.shutdown(silentLog());
      metrics.disable();
      for (let i = 0; i < TURNS_PER_ROUND; i++) await turn('off', round * TURNS_PER_ROUND + i);
    }
  } finally {
    await bot.stop();
  }
  const turns = ROUNDS * TURNS_PER_ROUND;
  const perTurn = { on: cpu.on / turns, off: cpu.off / turns };
  const results: BenchResult[] = [
    { suite: 'metrics', name: 'bridge CPU per turn, metrics on', value: round2(perTurn.on), unit: 'ms', note: `${turns} turns, alternating rounds with off` },
    {
      suite: 'metrics',
      name: 'bridge CPU per turn, OTEL_SDK_DISABLED',
      value: round2(perTurn.off),
      unit: 'ms',
      note: `${pct(perTurn.on, perTurn.off)} with metrics on`,
    },
    { suite: 'metrics', name: 'result line → answer at the Bot API p50, metrics on', value: percentile(latency.on, 50), unit: 'ms' },
    { suite: 'metrics', name: 'result line → answer at the Bot API p50, OTEL_SDK_DISABLED', value: percentile(latency.off, 50), unit: 'ms' },
    { suite: 'metrics', name: 'result line → answer at the Bot API p99, metrics on', value: percentile(latency.on, 99), unit: 'ms' },
    { suite: 'metrics', name: 'result line → answer at the Bot API p99, OTEL_SDK_DISABLED', value: percentile(latency.off, 99), unit: 'ms' },
    { suite: 'metrics', name: 'a scrape of /metrics (collect and serialize)', value: round2(scrapeMs), unit: 'ms', note: `${series} series` },
  ];
  const recordOn = await recordingCost(true);
  const recordOff = await recordingCost(false);
  results.push({ suite: 'metrics', name: "a turn's records (start, end, tokens, cost, 2 chat app calls), metrics on", value: round2(recordOn), unit: 'µs' });
  results.push({ suite: 'metrics', name: "a turn's records, OTEL_SDK_DISABLED", value: round2(recordOff), unit: 'µs' });
  return results;
}

/** Microseconds for what one turn records, in a loop: with the SDK, or the API's no-op. */
async function recordingCost(on: boolean): Promise<number> {
  const sdk = on ? await MetricsSdk.start(ON, 'jsonl-bridge') : undefined;
  if (!on) metrics.disable();
  const labels = { cli: 'claude', model: 'claude-opus-5-5' };
  const meter = sendMeter('telegram');
  const once = () => {
    workStarted('turn', labels);
    meter.waited(3);
    meter.called('ok');
    meter.waited(1);
    meter.called('ok');
    workEnded('turn', labels, 'completed', 1234);
    workSpent('turn', labels, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100 }, 0.001);
  };
  for (let i = 0; i < 10_000; i++) once();
  const started = performance.now();
  for (let i = 0; i < RECORDS; i++) once();
  const micros = ((performance.now() - started) * 1000) / RECORDS;
  void sdk?.shutdown(silentLog());
  return micros;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const pct = (on: number, off: number) => `${on >= off ? '+' : ''}${Math.round(((on - off) / off) * 1000) / 10}%`;
