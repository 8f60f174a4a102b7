import type { MarkedToken, Token } from 'marked';
import { decodeEntities } from './entities.ts';
import { inlineSpans } from './inline.ts';
import { listBlocks } from './lists.ts';
import { PLAIN } from '../../../kernel/rich/model.ts';
import type { Block, Span } from './block.ts';
import { tableText } from './table.ts';

const RULE = '———';

/** Converts marked's block tokens to text and preformatted blocks. */
export function toBlocks(tokens: readonly Token[]): Block[] {
  const out: Block[] = [];
  for (const generic of tokens) {
    const token = generic as MarkedToken; // extensions are not enabled, so no custom types
    switch (token.type) {
      case 'paragraph':
        pushText(out, inlineSpans(token.tokens));
        break;
      case 'text':
        pushText(out, token.tokens ? inlineSpans(token.tokens) : [{ text: decodeEntities(token.text), style: PLAIN }]);
        break;
      case 'heading':
        // Rich text has no headings (chats have none): a bold line that shouldn't end a message.
        pushText(out, inlineSpans(token.tokens, { ...PLAIN, bold: true }), true);
        break;
      case 'code':
        if (token.text.trim() !== '') out.push({ kind: 'pre', lang: language(token.lang), text: token.text });
        break;
      case 'table':
        out.push({ kind: 'pre', lang: '', text: tableText(token) });
        break;
      case 'blockquote':
        // Chats can't nest quotes or put a code block in one: flatten, and let code step outside.
        out.push(...toBlocks(token.tokens).map((b) => (b.kind === 'text' ? { ...b, quote: true } : b)));
        break;
      case 'list':
        out.push(...listBlocks(token, toBlocks));
        break;
      case 'hr':
        pushText(out, [{ text: RULE, style: PLAIN }]);
        break;
      case 'html':
        // Raw HTML is shown as typed, never passed through.
        pushText(out, [{ text: token.text.replace(/\s+$/, ''), style: PLAIN }]);
        break;
      case 'space':
      case 'def':
      case 'checkbox':
        break;
      default:
        // Inline tokens don't occur at block level; keep their text if they ever do.
        pushText(out, inlineSpans([token]));
    }
  }
  return out;
}

function pushText(out: Block[], spans: Span[], keepWithNext = false): void {
  if (spans.some((s) => s.text.trim() !== '')) out.push({ kind: 'text', quote: false, spans, keepWithNext });
}

/** The first word of the info string, if it looks like a language name. */
function language(info: string | undefined): string {
  const word = info?.trim().split(/\s+/)[0] ?? '';
  return /^[\w+#.-]{1,32}$/.test(word) ? word : '';
}
