import { expect } from 'vitest';
import { markdownToPlainText, markdownToTelegramHtml, splitForTelegram } from './telegram.ts';
import { expectPiecesOf } from './pieces.ts';
import { telegramHtmlProblems, visibleText } from './telegram-html.ts';
import { isWellFormed } from './unicode.ts';

export type Chunk = { html: string; plain: string };

/** Splits and checks every chunk: within limits, valid HTML, nothing lost or repeated. */
export function checkedSplit(md: string, limit = 4096): Chunk[] {
  return checkedSplitWithWhole(md, limit).chunks;
}

/** checkedSplit, also returning the whole answer's visible HTML text and plain text. */
export function checkedSplitWithWhole(md: string, limit: number): { chunks: Chunk[]; visible: string; plain: string } {
  const chunks = splitForTelegram(md, limit);
  for (const { html, plain } of chunks) {
    expect(html.length).toBeLessThanOrEqual(limit);
    expect(plain.length).toBeLessThanOrEqual(limit);
    expect(telegramHtmlProblems(html)).toEqual([]);
    expect(visibleText(html).trim()).not.toBe('');
    expect(isWellFormed(html) && isWellFormed(plain)).toBe(true);
  }
  const visible = visibleText(markdownToTelegramHtml(md));
  const plain = markdownToPlainText(md);
  expectPiecesOf(
    visible,
    chunks.map((c) => visibleText(c.html)),
  );
  expectPiecesOf(
    plain,
    chunks.map((c) => c.plain),
  );
  return { chunks, visible, plain };
}
