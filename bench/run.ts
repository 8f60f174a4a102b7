// `npm run bench`: every benchmark in one run (ratios are only meaningful within a run on a
// noisy machine), printed as a table and written to bench/results.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, type BenchResult } from './report.ts';

// Each suite is imported when it runs, not all at start: a suite measures in a process that
// holds only the code of the suites before it, not every suite's (the decode ratios, say,
// moved by a few percent with the heap of code the later suites bring).
const suites: Record<string, (dir: string) => Promise<BenchResult[]>> = {
  decode: async (dir) => (await import('./decode.ts')).benchDecode(dir),
  telegram: async (dir) => (await import('./telegram.ts')).benchTelegram(dir),
  subagents: async (dir) => (await import('./subagents.ts')).benchSubagents(dir),
  flood: async (dir) => (await import('./flood.ts')).benchFlood(dir),
  workers: async (dir) => (await import('./workers.ts')).benchWorkers(dir),
  'session-workers': async (dir) => (await import('./session-workers.ts')).benchSessionWorkers(dir),
  live: async (dir) => (await import('./live.ts')).benchLive(dir),
  pictures: async () => (await import('./pictures.ts')).benchPictures(),
  transports: async () => (await import('./transports.ts')).benchTransports(),
  traces: async (dir) => (await import('./traces.ts')).benchTraces(dir),
  sandbox: async (dir) => (await import('./sandbox.ts')).benchSandbox(dir),
  metrics: async (dir) => (await import('./metrics.ts')).benchMetrics(dir),
  acp: async (dir) => (await import('./acp.ts')).benchAcp(dir),
  walks: async () => (await import('./walks.ts')).benchWalks(),
  layout: async () => (await import('./layout.ts')).benchLayout(),
};

const only = process.argv.slice(2);
const dir = await mkdtemp(join(tmpdir(), 'jsonl-bridge-bench-'));
const results: BenchResult[] = [];
try {
  for (const [name, run] of Object.entries(suites)) {
    await mkdir(join(dir, name), { recursive: true });
    if (only.length && !only.includes(name)) continue;
    console.error(`running ${name}…`);
    results.push(...(await run(join(dir, name)).catch((error: Error) => [{ suite: name, name: 'FAILED', value: 0, unit: '', note: error.message }])));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
printTable(results);
const out = fileURLToPath(new URL('./results.json', import.meta.url));
await writeFile(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2) + '\n');
console.error(`written to ${out}`);
if (results.some((r) => r.name === 'FAILED')) process.exitCode = 1;
