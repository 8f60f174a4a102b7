import type { Token, Tokens } from 'marked';
import { PLAIN } from '../../../kernel/rich/model.ts';
import type { Block, Span } from './block.ts';

type ToBlocks = (tokens: readonly Token[]) => Block[];

/**
 * A list as "• item" / "1. item" lines. Continuation lines and nested lists
 * are indented to the item's text, so nesting shows as indentation.
 * `toBlocks` is passed in to avoid an import cycle with blocks.ts.
 */
export function listBlocks(list: Tokens.List, toBlocks: ToBlocks): Block[] {
  const first = typeof list.start === 'number' ? list.start : 1;
  const blocks = list.items.flatMap((item, i) => itemBlocks(item, marker(list.ordered, item, first + i), toBlocks));
  return joinAdjacentText(blocks);
}

function marker(ordered: boolean, item: Tokens.ListItem, n: number): string {
  const box = item.checked === true ? '☑' : '☐';
  if (ordered) return item.task ? `${n}. ${box}` : `${n}.`;
  return item.task ? box : '•';
}

function itemBlocks(item: Tokens.ListItem, mark: string, toBlocks: ToBlocks): Block[] {
  const inner = toBlocks(item.tokens);
  const indent = ' '.repeat(mark.length + 1);
  // An item starting with a code block still needs a line for its marker.
  if (inner[0]?.kind !== 'text') inner.unshift({ kind: 'text', quote: false, spans: [] });
  return inner.map((block, i) => {
    if (block.kind !== 'text') return block;
    const lead = i === 0 ? (block.spans.length > 0 ? `${mark} ` : mark) : indent;
    return { ...block, spans: prefixLines(block.spans, lead, indent) };
  });
}

/** Prefixes the first line with `first` and every later line with `rest`. */
function prefixLines(spans: readonly Span[], first: string, rest: string): Span[] {
  const out: Span[] = [{ text: first, style: PLAIN }];
  for (const span of spans) {
    span.text.split('\n').forEach((part, i) => {
      if (i > 0) out.push({ text: `\n${rest}`, style: PLAIN });
      if (part !== '') out.push({ text: part, style: span.style });
    });
  }
  return out;
}

/** List lines sit on consecutive lines, not in blank-line-separated blocks. */
function joinAdjacentText(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  for (const block of blocks) {
    const prev = out.at(-1);
    if (prev?.kind === 'text' && block.kind === 'text' && prev.quote === block.quote) {
      out[out.length - 1] = { ...block, spans: [...prev.spans, { text: '\n', style: PLAIN }, ...block.spans] };
    } else {
      out.push(block);
    }
  }
  return out;
}
