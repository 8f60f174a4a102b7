import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SubagentRunRecord } from '../src/subagents/record.ts';
import { RunStore } from '../src/subagents/run-store.ts';
import type { SpawnResult } from '../src/subagents/registry.ts';
import { openApp, spawnFrom } from '../test/support/app-world.ts';
import { fakeCliWorld } from '../test/support/fake-cli.ts';
import { RecordingOutbound } from '../test/support/recording-outbound.ts';
import type { BenchResult } from './report.ts';

const RUNS = 200;
const CHATS = 50;
const TOOLS_PER_RUN = 40;

/**
 * 200 subagents across 50 chats with the fake CLI (default limits: 4 per chat, 16 at once),
 * measuring this process only (the CLIs are children): heap per active run, CPU per event,
 * and how long a store write takes with 10,000 runs archived.
 */
export async function benchSubagents(dir: string): Promise<BenchResult[]> {
  const cli = await fakeCliWorld();
  const open = async (name: string) => {
    const data = join(dir, name);
    const work = join(data, 'work');
    await mkdir(work, { recursive: true });
    const out = new RecordingOutbound();
    const app = await openApp(cli, out, { dataDir: data, workdir: work });
    const spawn = (task: string, i: number) => spawnFrom(app, cli, task, -(i % CHATS) - 1, { requester: { kind: 'user', userId: 1 }, cwd: work });
    return { out, app, subagents: app.subagents, spawn, globalMax: app.subagents.registry.limits.globalMaxConcurrent };
  };
  // The same runs without tool calls, on their own store: what starting, recording and
  // announcing a run costs alone, so the per-event cost below is the events' own.
  const bareWorld = await open('bare');
  const bare = await cpuForRuns(bareWorld.spawn, bareWorld.out, 'say:bare');
  await bareWorld.app.shutdown();

  const { out, app, subagents, spawn, globalMax } = await open('tools');
  const results: BenchResult[] = [];
  try {
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < RUNS; i++) {
      const result = await spawn(`tools:${TOOLS_PER_RUN} pace:20 say:run-${i}`, i);
      if (!result.ok) throw new Error(result.error);
    }
    while (out.sent.length < RUNS) await new Promise((resolve) => setTimeout(resolve, 100));
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    const events = RUNS * (3 + 2 * TOOLS_PER_RUN); // started, tool_start/end pairs, text, result
    const failed = subagents.store.all().filter((r) => r.status !== 'completed').length;
    results.push({
      suite: 'subagents',
      name: `${RUNS} runs across ${CHATS} chats, wall time`,
      value: Math.round(wallMs),
      unit: 'ms',
      note: `${failed} not completed; ${RUNS} announcements`,
    });
    const totalUs = cpu.user + cpu.system;
    const perEvent = (totalUs - bare.perRunUs * RUNS) / (RUNS * 2 * TOOLS_PER_RUN);
    results.push({
      suite: 'subagents',
      name: 'bridge CPU per run (spawn, records, log, announcement)',
      value: Math.round(bare.perRunUs / 100) / 10,
      unit: 'ms',
      note: `${RUNS} runs without tool calls`,
    });
    results.push({
      suite: 'subagents',
      name: 'bridge CPU per event',
      value: Math.round(perEvent * 10) / 10,
      unit: 'µs',
      note: `marginal, over ${RUNS * 2 * TOOLS_PER_RUN} tool events; all-in ${Math.round(totalUs / events)} µs`,
    });
    results.push(await heapPerActiveRun(spawn, subagents, globalMax));
  } finally {
    await app.shutdown();
    await cli.cleanup();
  }
  results.push(...(await benchStoreWrites(join(dir, 'store'))));
  return results;
}

/**
 * The heap a running run holds, apart from the CPU phase (collecting garbage costs CPU): a
 * machine full of slow runs, sampled after a full collection, so garbage not yet collected
 * does not count as held.
 */
async function heapPerActiveRun(
  spawn: (task: string, i: number) => Promise<SpawnResult>,
  subagents: { registry: { runningTotal(): number }; idle(): Promise<void> },
  globalMax: number,
): Promise<BenchResult> {
  await subagents.idle();
  const collect = () => {
    global.gc?.();
    global.gc?.();
    return process.memoryUsage().heapUsed;
  };
  const base = collect();
  for (let i = 0; i < globalMax; i++) {
    const result = await spawn('tools:40 pace:100 say:held', i);
    if (!result.ok) throw new Error(result.error);
  }
  const samples: number[] = [];
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const active = subagents.registry.runningTotal();
    if (active) samples.push((collect() - base) / active);
  }
  await subagents.idle();
  return {
    suite: 'subagents',
    name: 'bridge heap per active run',
    value: Math.round(median(samples) / 1024),
    unit: 'KiB',
    note: `median of ${samples.length} samples after a full collection, ${globalMax} running`,
  };
}

async function cpuForRuns(spawn: (task: string, i: number) => Promise<SpawnResult>, out: RecordingOutbound, task: string): Promise<{ perRunUs: number }> {
  const announced = out.sent.length;
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const result = await spawn(task, i);
    if (!result.ok) throw new Error(result.error);
  }
  while (out.sent.length < announced + RUNS) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage(cpuStart);
  return { perRunUs: (cpu.user + cpu.system) / RUNS };
}

/** Store writes with an empty archive and with 10,000 archived runs: the archive must not slow the live file. */
async function benchStoreWrites(dir: string): Promise<BenchResult[]> {
  const time = async (archived: number) => {
    const path = join(dir, String(archived));
    await mkdir(path, { recursive: true });
    if (archived)
      await writeFile(join(path, 'subagents-archive.jsonl'), Array.from({ length: archived }, (_, i) => JSON.stringify(run(`a${i}`, i))).join('\n') + '\n');
    const store = await RunStore.open(path);
    for (let i = 0; i < 20; i++) await store.save(run(`live${i}`, i)); // a realistic live list
    const writes = 200;
    const start = performance.now();
    for (let i = 0; i < writes; i++) await store.save(run(`live${i % 20}`, i));
    const perWrite = (performance.now() - start) / writes;
    const sweepStart = performance.now();
    await store.trimArchive(50);
    return { perWrite, trimMs: performance.now() - sweepStart };
  };
  const empty = await time(0);
  const full = await time(10_000);
  return [
    { suite: 'subagents', name: 'store write, empty archive', value: round(empty.perWrite), unit: 'ms' },
    {
      suite: 'subagents',
      name: 'store write, 10,000 archived runs',
      value: round(full.perWrite),
      unit: 'ms',
      note: `ratio ${round(full.perWrite / empty.perWrite)} to empty`,
    },
    { suite: 'subagents', name: 'archive trim of 10,000 runs to 50 per chat', value: Math.round(full.trimMs), unit: 'ms', note: 'once a sweep, not per write' },
  ];
}

function run(runId: string, i: number): SubagentRunRecord {
  return {
    runId,
    number: i + 1,
    requesterChatId: -(i % 50) - 1,
    requesterKey: String(-(i % 50) - 1),
    requester: { kind: 'user', userId: 1, name: 'bench' },
    cli: 'fake',
    task: 'Summarise the repository and list the open questions. '.repeat(3),
    cwd: '/work',
    depth: 1,
    timeoutSeconds: 1800,
    status: 'completed',
    createdAt: 1_700_000_000_000 + i,
    startedAt: 1_700_000_000_100 + i,
    endedAt: 1_700_000_060_000 + i,
    result: 'A result of a few hundred characters. '.repeat(8),
    usage: { inputTokens: 1200, outputTokens: 300 },
    costUsd: 0.012,
    turns: 3,
    logFile: `/data/runs/${runId}.jsonl`,
    delivery: { chat: 'sent', sentParts: 1, attempts: 0 },
  };
}

const median = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! : 0);
const round = (n: number) => Math.round(n * 1000) / 1000;
