import type { RichText, Run } from './model.ts';

/** How a range of rich text is rendered. */
export interface RangeOptions {
  /** Drop all styling: the last resort when a style's markup alone would exceed a limit. */
  readonly bare?: boolean;
}

/** Each run overlapping [from, to), with its text clipped to the range and whether it ends inside it. */
export function* clipped(rich: RichText, from: number, to: number): Generator<{ run: Run; text: string; ends: boolean }> {
  for (let i = firstRunAt(rich.runs, from); i < rich.runs.length; i++) {
    const run = rich.runs[i];
    if (!run || run.start >= to) return;
    const end = run.start + run.text.length;
    const text = run.text.slice(Math.max(0, from - run.start), to - run.start);
    if (text !== '') yield { run, text, ends: end <= to };
  }
}

/** Index of the run containing `offset` (binary search; runs are sorted). */
function firstRunAt(runs: readonly Run[], offset: number): number {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((runs[mid]?.start ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
