import { labelShowsHref } from './links.ts';
import { CutRank, PLAIN, type Block, type Cut, type Doc, type Run, type RunStyle } from './model.ts';

const BLOCK_GAP = '\n\n';

interface Piece {
  readonly text: string;
  readonly style: RunStyle;
}

/** Lays blocks out as one flat run of styled text, noting where it may be cut. */
export function layout(blocks: readonly Block[]): Doc {
  const pieces: Piece[] = [];
  const gaps: Cut[] = [];
  let length = 0;
  const add = (piece: Piece): void => {
    pieces.push(piece);
    length += piece.text.length;
  };

  blocks.forEach((block, i) => {
    const prev = blocks[i - 1];
    if (prev) {
      // A gap between two quoted blocks stays inside the quote, so it remains one quote.
      const quote = isQuoted(prev) && isQuoted(block);
      const rank = prev.kind === 'text' && prev.keepWithNext === true ? CutRank.glued : CutRank.block;
      gaps.push({ at: length, skip: BLOCK_GAP.length, rank });
      add({ text: BLOCK_GAP, style: { ...PLAIN, quote, pre: null } });
    }
    if (block.kind === 'pre') {
      add({ text: block.text, style: { ...PLAIN, quote: false, pre: block.lang } });
    } else {
      for (const span of block.spans) add({ text: span.text, style: { ...span.style, quote: block.quote, pre: null } });
    }
  });

  const runs = toRuns(pieces);
  return { text: runs.map((r) => r.text).join(''), runs, cuts: mergeCuts(gaps, innerCuts(runs)) };
}

function isQuoted(block: Block): boolean {
  return block.kind === 'text' && block.quote;
}

/** Merges same-styled neighbours and attaches the plain-text link suffix. */
function toRuns(pieces: readonly Piece[]): Run[] {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const prev = merged.at(-1);
    if (prev && sameStyle(prev.style, piece.style)) merged[merged.length - 1] = { ...prev, text: prev.text + piece.text };
    else if (piece.text !== '') merged.push(piece);
  }

  const runs: Run[] = [];
  let start = 0;
  let label = '';
  merged.forEach((piece, i) => {
    const link = piece.style.link;
    label = link !== null && merged[i - 1]?.style.link === link ? label + piece.text : piece.text;
    const endsLink = link !== null && merged[i + 1]?.style.link !== link;
    const plainSuffix = endsLink && !labelShowsHref(label, link.href) ? ` (${link.href})` : '';
    runs.push({ text: piece.text, style: piece.style, start, plainSuffix });
    start += piece.text.length;
  });
  return runs;
}

function sameStyle(a: RunStyle, b: RunStyle): boolean {
  return (
    a.bold === b.bold && a.italic === b.italic && a.strike === b.strike && a.code === b.code && a.link === b.link && a.quote === b.quote && a.pre === b.pre
  );
}

/**
 * Line and word cuts inside blocks. Outside code, the whitespace at a cut is
 * dropped; inside code it is kept (indentation matters), so the cut goes
 * after a space and skips nothing.
 */
function innerCuts(runs: readonly Run[]): Cut[] {
  const cuts: Cut[] = [];
  for (const run of runs) {
    const inPre = run.style.pre !== null;
    for (const m of run.text.matchAll(/\n|[ \t]+/g)) {
      const at = run.start + m.index;
      if (m[0] === '\n') cuts.push({ at, skip: 1, rank: CutRank.line });
      else if (inPre) cuts.push({ at: at + m[0].length, skip: 0, rank: CutRank.word });
      else cuts.push({ at, skip: m[0].length, rank: CutRank.word });
    }
  }
  return cuts;
}

/** Block gaps win over the line cuts found inside them. */
function mergeCuts(gaps: readonly Cut[], inner: readonly Cut[]): Cut[] {
  const gapChars = new Set(gaps.flatMap((g) => Array.from({ length: g.skip }, (_, i) => g.at + i)));
  const kept = inner.filter((c) => !gapChars.has(c.at));
  return [...gaps, ...kept].sort((a, b) => a.at - b.at);
}
