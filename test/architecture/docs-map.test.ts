import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs as a map of the code: the layout's table names every part of src/, and no doc names
// a file or folder of src/ that is not there (a rename that left its doc behind fails here).
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MAP = 'docs/how-it-works.md';
const docs = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(REPO, file), 'utf8');
const folders = (dir: string) =>
  readdirSync(join(REPO, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
/** The tiers of src/, and the parts in each (`chat/turns`). */
const tiers = folders('src');
const parts = tiers.flatMap((tier) => folders(`src/${tier}`).map((part) => `${tier}/${part}`));

/** The paths a text names in code spans: `src/…`, or a part's file such as `turns/turns.ts`. */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return spans.flatMap((span) => {
    const path = span.replace(/^src\//, '');
    // A pattern (`src/<id>/transport.ts`, `adapters/*.json`) names no one path.
    if (/[<*{]/.test(span)) return [];
    const named = span.startsWith('src/') || (/^[a-z-]+\/[\w./-]+\.ts$/.test(span) && tiers.includes(path.split('/')[0]!));
    return named ? [path.replace(/[/.,:]+$/, '')] : [];
  });
}

describe('the docs as a map of src/', () => {
  it(`names every tier of src/, and every part in it, in ${MAP}'s table of folders`, () => {
    const rows = read(MAP)
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const named = new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`src\/([\w/-]+?)\/?`/g)].map((match) => match[1]!)));
    expect([...tiers, ...parts].filter((folder) => !named.has(folder))).toEqual([]);
  });

  it('names no file or folder of src/ that is not there', () => {
    const missing = docs.flatMap((doc) =>
      namedPaths(read(doc))
        .filter((path) => !existsSync(join(REPO, 'src', path)) && !existsSync(join(REPO, 'src', `${path}.ts`)))
        .map((path) => `${doc}: src/${path}`),
    );
    expect(missing).toEqual([]);
  });
});
