import { CutRank, type Cut, type RichText, type Run, type RunStyle } from './model.ts';

/** A stretch of styled text, before neighbours are merged into runs. */
export interface Piece {
  readonly text: string;
  readonly style: RunStyle;
}

/**
 * Rich text from styled pieces: same-styled neighbours merged, links given their plain-text
 * suffix, and the cuts inside lines and words found. `gaps` are cuts already known (between
 * blocks); they win over the line cuts inside them.
 */
export function compose(pieces: readonly Piece[], gaps: readonly Cut[] = []): RichText {
  const runs = toRuns(pieces);
  return { text: runs.map((r) => r.text).join(''), runs, cuts: mergeCuts(gaps, innerCuts(runs)) };
}

/** True when the label already shows the target, so plain text needn't repeat it. */
export function labelShowsHref(label: string, href: string): boolean {
  const bare = (s: string): string =>
    s
      .trim()
      .replace(/^(?:https?:\/\/|mailto:)/i, '')
      .replace(/\/$/, '');
  return bare(label) === bare(href);
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

export function sameStyle(a: RunStyle, b: RunStyle): boolean {
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
