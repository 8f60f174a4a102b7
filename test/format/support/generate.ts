// Seeded random Markdown documents for property tests (no dependency needed).

import { seeded, type Random } from '../../support/seeded.ts';

export { seeded, type Random };

const int = (r: Random, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const WORDS = [
  'the',
  'agent',
  'ran',
  'tests',
  'snake_case_name',
  'a&b',
  '<div>',
  'x<y',
  '"quoted"',
  '2*3',
  'naïve',
  '日本語',
  'emoji👍🏽',
  '🇺🇸🇫🇷',
  'family👨‍👩‍👧',
  'e\u0301',
  'path/to/file.ts',
  'foo()',
  '&amp;',
  '~tilde',
];

function word(r: Random): string {
  if (r() < 0.02) return 'W'.repeat(int(r, 50, 400)); // longer than small limits
  if (r() < 0.02) return '😀'.repeat(int(r, 20, 100));
  return pick(r, WORDS);
}

function inline(r: Random, links: boolean): string {
  const parts: string[] = [];
  const n = int(r, 1, 25);
  for (let i = 0; i < n; i++) {
    const w = word(r);
    const k = r();
    if (k < 0.08) parts.push(`**${w} ${word(r)}**`);
    else if (k < 0.14) parts.push(`*${w}*`);
    else if (k < 0.18) parts.push(`~~${w}~~`);
    else if (k < 0.24) parts.push(`\`${w}\``);
    else if (links && k < 0.3) parts.push(`[${w}](https://example.com/${int(r, 0, 99)}?q=a&b=${w.length})`);
    else if (links && k < 0.32) parts.push(`[${w}](javascript:alert(${i}))`);
    else parts.push(w);
  }
  return parts.join(' ');
}

function codeBlock(r: Random): string {
  const lang = pick(r, ['', 'ts', 'python', 'c++', 'bad lang']);
  const lines = Array.from({ length: int(r, 1, 30) }, (_, i) =>
    r() < 0.05 ? 'z'.repeat(int(r, 80, 900)) : `${'  '.repeat(i % 4)}if (a < b && c > "d") { ${word(r)} }`,
  );
  return '```' + lang + '\n' + lines.join('\n') + '\n```';
}

function list(r: Random, links: boolean, depth = 0): string {
  const ordered = r() < 0.4;
  const indent = '   '.repeat(depth);
  return Array.from({ length: int(r, 1, 6) }, (_, i) => {
    const item = `${indent}${ordered ? `${i + 1}.` : '-'} ${inline(r, links)}`;
    return depth < 2 && r() < 0.2 ? `${item}\n${list(r, links, depth + 1)}` : item;
  }).join('\n');
}

function table(r: Random): string {
  const cols = int(r, 1, 4);
  const row = (): string => `| ${Array.from({ length: cols }, () => Array.from(word(r)).slice(0, 30).join('')).join(' | ')} |`;
  const rows = Array.from({ length: int(r, 1, 8) }, row);
  return [row(), `|${' --- |'.repeat(cols)}`, ...rows].join('\n');
}

function block(r: Random, links: boolean): string {
  const k = r();
  if (k < 0.35) return inline(r, links);
  if (k < 0.45) return `${'#'.repeat(int(r, 1, 3))} ${inline(r, links)}`;
  if (k < 0.6) return codeBlock(r);
  if (k < 0.72) return list(r, links);
  if (k < 0.8) return table(r);
  if (k < 0.9) return `> ${inline(r, links)}\n> ${inline(r, links)}`;
  if (k < 0.93) return '---';
  return `<details>${inline(r, false)}</details>`;
}

/** A random document; `links: false` keeps plain text identical to the visible HTML text. */
export function randomMarkdown(r: Random, { links = true, blocks = int(r, 1, 10) } = {}): string {
  const parts = Array.from({ length: blocks }, () => block(r, links));
  if (r() < 0.15) parts.push('```sh\nunclosed fence\n' + inline(r, false)); // a truncated answer
  return parts.join('\n\n');
}
