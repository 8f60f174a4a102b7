// Records how long each test file took in the last full `vitest run` here (vitest keeps its
// timings in node_modules/.vite) into test/durations.json, which orders a fresh clone's run
// longest first (test/support/slowest-first.ts). Run it after a full run on a loaded machine.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CACHE = 'node_modules/.vite/vitest';
const [hash] = readdirSync(CACHE);
if (!hash) throw new Error(`no vitest timings in ${CACHE}: run the suite first`);
const { results } = JSON.parse(readFileSync(join(CACHE, hash, 'results.json'), 'utf8'));
const seconds = Object.fromEntries(
  results.map(([key, { duration }]) => [key.slice(key.indexOf(':') + 1), Math.round(duration / 1000)]).sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync('test/durations.json', `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(seconds).length} files`);
