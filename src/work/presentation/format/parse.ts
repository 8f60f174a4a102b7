import { getDefaults, Lexer, type Token } from 'marked';
import { toBlocks } from './blocks.ts';
import { compose, type Piece } from '../../../kernel/rich/compose.ts';
import { CutRank, PLAIN, type Cut, type RichText } from '../../../kernel/rich/model.ts';
import type { Block } from './block.ts';

/** Parses GitHub-flavoured Markdown (an agent's answer) into rich text. */
export function parseMarkdown(md: string): RichText {
  return layout(toBlocks(lex(md)));
}

function lex(md: string): Token[] {
  // Fresh options each time: marked's globals may be changed by other code,
  // and the lexer writes into the options object it is given.
  const options = { ...getDefaults(), gfm: true, breaks: false, pedantic: false };
  try {
    return new Lexer(options).lex(md);
  } catch {
    // marked throws on internal loops; an answer must still be delivered.
    return [{ type: 'html', raw: md, text: md, block: true, pre: false }];
  }
}

const BLOCK_GAP = '\n\n';

/** Lays blocks out as one flat run of styled text, noting where it may be cut. */
export function layout(blocks: readonly Block[]): RichText {
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

  return compose(pieces, gaps);
}

function isQuoted(block: Block): boolean {
  return block.kind === 'text' && block.quote;
}
