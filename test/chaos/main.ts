import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runChaos } from './chaos.ts';
import { formatReport } from './report.ts';

// `npm run chaos [-- --cycles N] [--seed S] [--claude]`: the long chaos run (the short one is in
// `npm test`); `--claude` runs the real claude against the mock model instead of the fake CLI.
// Exits 1 when anything was lost or doubled (turns run out of order are reported).
const { values } = parseArgs({
  options: {
    cycles: { type: 'string' },
    seed: { type: 'string' },
    claude: { type: 'boolean', default: false },
  },
});
const claude = values.claude ?? false;
const cycles = Number(values.cycles ?? (claude ? 3 : 20));
const seed = Number(values.seed ?? Date.now() % 100_000);
if (!Number.isInteger(cycles) || cycles < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run chaos -- [--cycles N] [--seed S] [--claude]');
  process.exit(2);
}
console.log(`chaos: ${cycles} cycles with ${claude ? 'the real claude' : 'the fake CLI'}, seed ${seed}`);
const report = await runChaos({ cycles, seed, cli: claude ? 'claude' : 'fake', log: (line) => console.log(line) });
console.log(formatReport(report));
const failed = report.turns.lost + report.turns.duplicated + report.turns.outOfOrder + report.runs.lost + report.runs.duplicated;
if (failed) {
  const file = join(tmpdir(), `chaos-${seed}.log`);
  writeFileSync(file, report.logs.map((log, i) => `--- bridge ${i + 1} ---\n${log}`).join('\n'));
  console.log(`each bridge's log: ${file}`);
}
process.exit(failed ? 1 : 0);
