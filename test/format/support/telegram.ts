import { parseMarkdown } from '../../../src/work/presentation/format/parse.ts';
import { previewWithin, splitRendered } from '../../../src/work/presentation/format/split.ts';
import { plainText } from '../../../src/kernel/rich/plain.ts';
import { TELEGRAM_CAPABILITIES } from '../../../src/transports/telegram/capabilities.ts';
import { renderHtml } from '../../../src/transports/telegram/format/html.ts';

// Rich text as Telegram shows it (HTML), and Markdown straight to what Telegram is sent, as the
// bridge's own parts make it: the shortcuts the format tests check.
export { escapeHtml } from '../../../src/kernel/rich/html.ts';
export { renderHtml } from '../../../src/transports/telegram/format/html.ts';

/** The answer without markup; link targets follow their labels in parentheses. */
export function markdownToPlainText(md: string): string {
  return plainText(parseMarkdown(md));
}

/** Markdown to Telegram's HTML subset (parse_mode: 'HTML'). */
export function markdownToTelegramHtml(md: string): string {
  return renderHtml(parseMarkdown(md));
}

/** An answer as the messages it takes: each one's HTML and its plain fallback. */
export function splitForTelegram(md: string, limit = TELEGRAM_CAPABILITIES.messageChars): { html: string; plain: string }[] {
  return splitRendered(parseMarkdown(md), limit, renderHtml).map((chunk) => ({ html: renderHtml(chunk), plain: plainText(chunk) }));
}

/** The opening of a long answer as Telegram HTML of at most `maxChars` characters. */
export function documentPreview(md: string, maxChars = 900): string {
  return renderHtml(previewWithin(parseMarkdown(md), maxChars, renderHtml));
}
