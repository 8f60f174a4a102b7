import { compose, sameStyle } from './compose.ts';
import { UNSTYLED, type Cut, type RichText, type Run } from './model.ts';
import { clipped, type RangeOptions } from './range.ts';

/** Rich texts one after another, each keeping its runs (links their targets) and cuts. */
export function concat(parts: readonly RichText[]): RichText {
  const runs: Run[] = [];
  const cuts: Cut[] = [];
  let offset = 0;
  for (const part of parts) {
    for (const run of part.runs) {
      const prev = runs.at(-1);
      // Same-styled neighbours are one run, unless a link's plain-text target comes between them.
      if (prev && prev.plainSuffix === '' && sameStyle(prev.style, run.style))
        runs[runs.length - 1] = { ...run, text: prev.text + run.text, start: prev.start };
      else runs.push({ ...run, start: run.start + offset });
    }
    for (const cut of part.cuts) cuts.push({ ...cut, at: cut.at + offset });
    offset += part.text.length;
  }
  return { text: parts.map((part) => part.text).join(''), runs, cuts };
}

/**
 * The rich text in [from, to), e.g. one message's share of a long answer. A link cut
 * there shows its target in plain text only where it ends; `bare` drops every style.
 */
export function slice(rich: RichText, from: number, to: number, { bare = false }: RangeOptions = {}): RichText {
  const runs: Run[] = [];
  let start = 0;
  for (const { run, text, ends } of clipped(rich, from, to)) {
    runs.push({ text, style: bare ? UNSTYLED : run.style, start, plainSuffix: ends && !bare ? run.plainSuffix : '' });
    start += text.length;
  }
  const cuts = rich.cuts.filter((cut) => cut.at > from && cut.at + cut.skip < to).map((cut) => ({ ...cut, at: cut.at - from }));
  return { text: rich.text.slice(from, to), runs, cuts };
}

/**
 * The rich text with each match of `pattern` (global) replaced by what `replace` makes of it,
 * in the style where the match starts; its cuts stay where they were, less those in a match.
 */
export function replaced(rich: RichText, pattern: RegExp, replace: (match: RegExpMatchArray) => string): RichText {
  const parts: RichText[] = [];
  const cuts: Cut[] = [];
  const keepCuts = (from: number, to: number, shift: number) => {
    for (const cut of rich.cuts) if (cut.at >= from && cut.at + cut.skip <= to) cuts.push({ ...cut, at: cut.at + shift });
  };
  let [from, shift] = [0, 0];
  for (const match of rich.text.matchAll(pattern)) {
    const [at, replacement] = [match.index, replace(match)];
    if (replacement === match[0]) continue;
    keepCuts(from, at, shift);
    const piece = slice(rich, at, at + match[0].length);
    parts.push(slice(rich, from, at), {
      text: replacement,
      runs: [{ text: replacement, style: piece.runs[0]?.style ?? UNSTYLED, start: 0, plainSuffix: piece.runs.at(-1)?.plainSuffix ?? '' }],
      cuts: [],
    });
    shift += replacement.length - match[0].length;
    from = at + match[0].length;
  }
  if (!parts.length) return rich;
  keepCuts(from, rich.text.length, shift);
  return { ...concat([...parts, slice(rich, from, rich.text.length)]), cuts };
}

/** Lines put around an answer's messages: a header before the first, a footer after the last. */
export interface Frame {
  header?: RichText;
  footer?: RichText;
}

/** Messages with a header opening the first and a footer closing the last, a blank line between. */
export function framed(messages: readonly RichText[], { header, footer }: Frame = {}): RichText[] {
  const gap = compose([{ text: '\n\n', style: UNSTYLED }]);
  return messages.map((message, i) => {
    const head = i === 0 && header ? [header, gap] : [];
    const foot = i === messages.length - 1 && footer ? [gap, footer] : [];
    return head.length || foot.length ? concat([...head, message, ...foot]) : message;
  });
}
