import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runChaos } from './chaos.ts';
import { formatReport } from './report.ts';

// `npm run chaos [-- --cycles N] [--seed S] [--claude] [--workers]`: the long chaos run (the short
// one is in `npm test`); `--claude` runs the real claude against the mock model instead of the
// fake CLI; `--workers`, or BRIDGE_REDIS_URL set, runs subagents on two workers through a queue
// (BRIDGE_REDIS_URL's, or a redis-server of its own) and kills or drains one now and then.
// Exits 1 when anything was lost or doubled (turns run out of order are reported).
const { values } = parseArgs({
  options: {
    cycles: { type: 'string' },
    seed: { type: 'string' },
    claude: { type: 'boolean', default: false },
    workers: { type: 'boolean', default: false },
  },
});
const claude = values.claude ?? false;
const cycles = Number(values.cycles ?? (claude ? 3 : 20));
const seed = Number(values.seed ?? Date.now() % 100_000);
if (!Number.isInteger(cycles) || cycles < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run chaos -- [--cycles N] [--seed S] [--claude] [--workers]');
  process.exit(2);
}
const redisUrl = process.env.BRIDGE_REDIS_URL?.trim() || undefined;
const workers =
  values.workers || redisUrl
    ? { ...(redisUrl ? { redisUrl } : {}), ...(process.env.BRIDGE_QUEUE_SECRET ? { queueSecret: process.env.BRIDGE_QUEUE_SECRET } : {}) }
    : undefined;
console.log(
  `chaos: ${cycles} cycles with ${claude ? 'the real claude' : 'the fake CLI'}${workers ? `, runs on two workers through ${redisUrl ? 'BRIDGE_REDIS_URL' : 'a redis-server of its own'}` : ''}, seed ${seed}`,
);
const report = await runChaos({ cycles, seed, cli: claude ? 'claude' : 'fake', log: (line) => console.log(line), ...(workers ? { workers } : {}) });
console.log(formatReport(report));
const failed = report.turns.lost + report.turns.duplicated + report.turns.outOfOrder + report.runs.lost + report.runs.duplicated;
if (failed) {
  const file = join(tmpdir(), `chaos-${seed}.log`);
  writeFileSync(
    file,
    report.logs
      .map((log, i) => (log.startsWith('worker ') ? `--- ${log.split('\n')[0]} ---\n${log.slice(log.indexOf('\n') + 1)}` : `--- bridge ${i + 1} ---\n${log}`))
      .join('\n'),
  );
  console.log(`each bridge's and worker's log: ${file}`);
}
process.exit(failed ? 1 : 0);
