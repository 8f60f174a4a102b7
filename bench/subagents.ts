import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SubagentRunRecord } from '../src/work/subagents/record.ts';
import { RunStore } from '../src/work/subagents/run-store.ts';
import type { SpawnResult } from '../src/work/subagents/spawn-request.ts';
import { openApp, spawnFrom } from '../test/support/app-world.ts';
import { fakeCliWorld } from '../test/support/fake-cli.ts';
import { RecordingOutbound } from '../test/support/recording-outbound.ts';
import type { BenchResult } from './report.ts';
import { chat } from '../test/support/chats.ts';
import { chatKey } from '../src/kernel/ports/chat.ts';

const RUNS = 200;
const CHATS = 50;
const TOOLS_PER_RUN = 40;
const PACE_MS = 20;
const STEADY_WINDOW_MS = 5000;

/**
 * 200 subagents across 50 chats with the fake CLI (default limits: 4 per chat, 16 at once),
 * measuring this process only (the CLIs are children): CPU per run and per event, heap per active run,
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
    const spawn = (task: string, i: number) => spawnFrom(app, cli, task, -(i % CHATS) - 1, { requester: { kind: 'user', userId: '1' }, cwd: work });
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
      const result = await spawn(`tools:${TOOLS_PER_RUN} pace:${PACE_MS} say:run-${i}`, i);
      if (!result.ok) throw new Error(result.error);
    }
    while (out.sent.length < RUNS) await new Promise((resolve) => setTimeout(resolve, 100));
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    const failed = subagents.store.all().filter((r) => r.status !== 'completed').length;
    results.push({
      suite: 'subagents',
      name: `${RUNS} runs across ${CHATS} chats, wall time`,
      value: Math.round(wallMs),
      unit: 'ms',
      note: `${failed} not completed; ${RUNS} announcements`,
    });
    results.push({
      suite: 'subagents',
      name: 'bridge CPU per run (spawn, records, log, announcement)',
      value: Math.round(bare.perRunUs / 100) / 10,
      unit: 'ms',
      note: `${RUNS} runs without tool calls; all-in with ${TOOLS_PER_RUN} tool calls ${Math.round((cpu.user + cpu.system) / RUNS / 100) / 10} ms`,
    });
    results.push(await cpuPerEvent(spawn, subagents, globalMax));
    results.push(await heapPerActiveRun(spawn, subagents, globalMax));
  } finally {
    await app.shutdown();
    await cli.cleanup();
  }
  results.push(...(await benchStoreWrites(join(dir, 'store'))));
  return results;
}

/**
 * Bridge CPU per run event at steady state: the machine full of runs making tool calls,
 * measured over a window in which no run starts or ends, less the same window with as many
 * runs running silently. Starting a run costs a thousand events and varies by more than the
 * events' own cost, so the two are measured apart.
 */
async function cpuPerEvent(
  spawn: (task: string, i: number) => Promise<SpawnResult>,
  subagents: { registry: { get(runId: string): SubagentRunRecord | undefined; stop(runId: string, by: string): Promise<boolean> }; idle(): Promise<void> },
  globalMax: number,
): Promise<BenchResult> {
  const steady = async (task: string) => {
    await subagents.idle();
    const runs: SubagentRunRecord[] = [];
    for (let i = 0; i < globalMax; i++) {
      const result = await spawn(task, i);
      if (!result.ok) throw new Error(result.error);
      runs.push(result.run);
    }
    // Every CLI has started and named its session: from here on, only events come.
    while (runs.some((run) => !subagents.registry.get(run.runId)?.childSessionId)) await sleep(50);
    await sleep(500);
    const before = await loggedLines(runs);
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    await sleep(STEADY_WINDOW_MS);
    const cpu = process.cpuUsage(cpuStart);
    const ms = performance.now() - started;
    const events = (await loggedLines(runs)) - before;
    await Promise.all(runs.map((run) => subagents.registry.stop(run.runId, 'the bench')));
    return { usPerMs: (cpu.user + cpu.system) / ms, eventsPerMs: events / ms };
  };
  const quiet = await steady('sleep:600 say:quiet');
  const busy = await steady(`tools:100000 pace:${PACE_MS} say:busy`);
  await subagents.idle();
  const perEvent = (busy.usPerMs - quiet.usPerMs) / busy.eventsPerMs;
  return {
    suite: 'subagents',
    name: 'bridge CPU per event',
    value: Math.round(perEvent * 10) / 10,
    unit: 'µs',
    note: `marginal: ${globalMax} runs making a tool call every ${PACE_MS} ms (${Math.round(busy.eventsPerMs * 1000)} events/s) against ${globalMax} silent ones, ${STEADY_WINDOW_MS / 1000} s each`,
  };
}

/** Lines in the runs' logs so far: one per event their CLIs printed. */
async function loggedLines(runs: SubagentRunRecord[]): Promise<number> {
  let lines = 0;
  for (const run of runs) {
    const text = await readFile(run.logFile, 'utf8').catch(() => '');
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  }
  return lines;
}

/**
 * The heap a running run holds, apart from the CPU phase (collecting garbage costs CPU): a
 * machine full of slow runs, sampled after a full collection, so garbage not yet collected
 * does not count as held, against the heap once they have ended (their records stay): what
 * was held before them (caches of the phases before, freed meanwhile) does not count either.
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
  for (let i = 0; i < globalMax; i++) {
    const result = await spawn('tools:40 pace:100 say:held', i);
    if (!result.ok) throw new Error(result.error);
  }
  const held: { heap: number; active: number }[] = [];
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const active = subagents.registry.runningTotal();
    if (active) held.push({ heap: collect(), active });
  }
  await subagents.idle();
  const base = collect();
  const samples = held.map(({ heap, active }) => (heap - base) / active);
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
    chat: chat(-(i % 50) - 1),
    requesterKey: chatKey(chat(-(i % 50) - 1)),
    requester: { kind: 'user', userId: '1', name: 'bench' },
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number) => Math.round(n * 1000) / 1000;
