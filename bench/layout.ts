// The shape of src/ in numbers, as the design's measures ask: hand-written lines, tiers, files
// past the 400-line mark, the import graph's layers and the imports that point up.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { ICruiseResult } from 'dependency-cruiser';
import { importGraph } from '../test/support/import-graph.ts';
import type { BenchResult } from './report.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/** Code the build writes (`npm run generate`), not counted as ours. */
const GENERATED = /\/generated\//;

export async function benchLayout(): Promise<BenchResult[]> {
  const listed = (await execa('git', ['ls-files', 'src'], { cwd: REPO })).stdout.split('\n');
  const files = listed.filter((file) => /\.tsx?$/.test(file) && !GENERATED.test(file));
  const lines = new Map<string, number>();
  // Counted as `wc -l` counts: newlines.
  for (const file of files) lines.set(file, (await readFile(join(REPO, file), 'utf8')).split('\n').length - 1);
  const long = [...lines].filter(([, n]) => n > 400).map(([file]) => file);
  const graph = await importGraph();
  return [
    { suite: 'layout', name: 'hand-written src lines', value: [...lines.values()].reduce((a, b) => a + b, 0), unit: 'lines', note: `${files.length} files` },
    {
      suite: 'layout',
      name: 'top-level folders in src/',
      value: new Set(files.filter((f) => f.split('/').length > 2).map((f) => f.split('/')[1])).size,
      unit: 'folders',
    },
    { suite: 'layout', name: 'hand-written files over 400 lines', value: long.length, unit: 'files', note: long.join(', ') },
    { suite: 'layout', name: 'import layers, runtime imports', value: layers(graph, false), unit: 'layers' },
    { suite: 'layout', name: 'import layers, type imports too', value: layers(graph, true), unit: 'layers' },
    { suite: 'layout', name: 'imports that break the rules (upward, cycles)', value: graph.summary.violations.length, unit: 'imports' },
  ];
}

/** The longest chain of imports: a file stands one layer above the highest it imports. */
function layers(graph: ICruiseResult, withTypes: boolean): number {
  const imports = new Map(
    graph.modules.map((m) => [
      m.source,
      m.dependencies.filter((d) => d.resolved.startsWith('src/') && (withTypes || !d.dependencyTypes.includes('type-only'))).map((d) => d.resolved),
    ]),
  );
  const layer = new Map<string, number>();
  const of = (file: string, path: Set<string>): number => {
    const known = layer.get(file);
    if (known !== undefined) return known;
    if (path.has(file)) return 0; // a cycle (the rules forbid them; counted above)
    path.add(file);
    const own = 1 + Math.max(0, ...(imports.get(file) ?? []).map((next) => of(next, path)));
    path.delete(file);
    layer.set(file, own);
    return own;
  };
  return Math.max(...[...imports.keys()].map((file) => of(file, new Set())));
}
