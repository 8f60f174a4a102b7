import { parseDoc } from './parse.ts';
import { renderHtml, renderPlain } from './serialize.ts';

/** Markdown to Telegram's HTML subset (parse_mode: 'HTML'). */
export function markdownToTelegramHtml(md: string): string {
  return renderHtml(parseDoc(md));
}

/** The same content without markup; link targets follow their labels in parentheses. */
export function markdownToPlainText(md: string): string {
  return renderPlain(parseDoc(md));
}
