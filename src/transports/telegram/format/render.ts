import { parseMarkdown } from '../../../work/presentation/format/parse.ts';
import { plainText } from '../../../kernel/rich/plain.ts';
import { renderHtml } from './html.ts';
import { preview } from './preview.ts';
import { splitMessages, TELEGRAM_MESSAGE_LIMIT } from './split.ts';

// Markdown straight to what Telegram is sent: the shortcuts the format tests check.

/** Markdown to Telegram's HTML subset (parse_mode: 'HTML'). */
export function markdownToTelegramHtml(md: string): string {
  return renderHtml(parseMarkdown(md));
}

/** An answer as the messages it takes: each one's HTML and its plain fallback. */
export function splitForTelegram(md: string, limit = TELEGRAM_MESSAGE_LIMIT): { html: string; plain: string }[] {
  return splitMessages(parseMarkdown(md), limit).map((chunk) => ({ html: renderHtml(chunk), plain: plainText(chunk) }));
}

/** The opening of a long answer as Telegram HTML of at most `maxChars` characters. */
export function documentPreview(md: string, maxChars = 900): string {
  return renderHtml(preview(parseMarkdown(md), maxChars));
}
