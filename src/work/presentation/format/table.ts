import type { Tokens } from 'marked';
import { inlineText } from './inline.ts';

// Chats have no tables, so a table becomes monospace text with padded columns.

type Align = Tokens.TableCell['align'];

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Column width in graphemes; wide CJK/emoji glyphs may still drift a little. */
function width(s: string): number {
  // eslint-disable-next-line no-control-regex -- the range starts at U+0000 on purpose
  if (!/[^\u0000-\u02ff]/.test(s)) return s.length; // nothing combines below U+0300; skip the slow segmenter
  let n = 0;
  for (const _ of graphemes.segment(s)) n++;
  return n;
}

function pad(s: string, size: number, align: Align): string {
  const gap = size - width(s);
  if (align === 'right') return ' '.repeat(gap) + s;
  if (align === 'center') {
    const left = Math.floor(gap / 2);
    return ' '.repeat(left) + s + ' '.repeat(gap - left);
  }
  return s + ' '.repeat(gap);
}

/** The table as aligned lines: header, a rule, then the rows. */
export function tableText(table: Tokens.Table): string {
  const cellText = (cell: Tokens.TableCell): string => inlineText(cell.tokens).replace(/\s+/g, ' ').trim();
  const header = table.header.map(cellText);
  const rows = table.rows.map((row) => header.map((_, col) => (row[col] ? cellText(row[col]) : '')));
  const widths = header.map((h, col) => Math.max(width(h), ...rows.map((r) => width(r[col] ?? ''))));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, col) => pad(c, widths[col] ?? 0, table.align[col] ?? null))
      .join(' │ ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  return [line(header), rule, ...rows.map(line)].join('\n');
}
