import { getDefaults, Lexer, type Token } from 'marked';
import { toBlocks } from './blocks.ts';
import { layout } from './layout.ts';
import type { RichText } from '../../../kernel/rich/model.ts';

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
