// `npm run bench`: every benchmark in one run (ratios are only meaningful within a run on a
// noisy machine), printed as a table and written to bench/results.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDecode } from './decode.ts';
import { benchSubagents } from './subagents.ts';
import { benchTelegram } from './telegram.ts';
import { benchFlood } from './flood.ts';
import { benchWorkers } from './workers.ts';
import { benchSessionWorkers } from './session-workers.ts';
import { benchLive } from './live.ts';
import { benchPictures } from './pictures.ts';
import { benchTransports } from './transports.ts';
import { benchTraces } from './traces.ts';
import { benchSandbox } from './sandbox.ts';
import { benchMetrics } from './metrics.ts';
import { benchAcp } from './acp.ts';
import { benchWalks } from './walks.ts';
import { benchLayout } from './layout.ts';
import { printTable, type BenchResult } from './report.ts';

const suites: Record<string, (dir: string) => Promise<BenchResult[]>> = {
  decode: benchDecode,
  telegram: benchTelegram,
  subagents: benchSubagents,
  flood: benchFlood,
  workers: benchWorkers,
  'session-workers': benchSessionWorkers,
  live: benchLive,
  pictures: benchPictures,
  transports: benchTransports,
  traces: benchTraces,
  sandbox: benchSandbox,
  metrics: benchMetrics,
  acp: benchAcp,
  walks: benchWalks,
  layout: benchLayout,
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
