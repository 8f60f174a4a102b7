import { escapeHtml, escapeHtmlText, renderHtmlWith, type HtmlTags } from '../../../kernel/rich/html.ts';

/** Telegram's HTML parse mode: its tags, and only &lt; &gt; &amp; &quot; for escapes. */
const TELEGRAM_HTML: HtmlTags = {
  bold: { open: '<b>', close: '</b>' },
  italic: { open: '<i>', close: '</i>' },
  strike: { open: '<s>', close: '</s>' },
  code: { open: '<code>', close: '</code>' },
  quote: { open: '<blockquote>', close: '</blockquote>' },
  pre: (language) =>
    language === '' ? { open: '<pre>', close: '</pre>' } : { open: `<pre><code class="language-${escapeHtml(language)}">`, close: '</code></pre>' },
  codeInPre: true,
  text: (text) => escapeHtmlText(text),
};

/** Telegram HTML (parse_mode: 'HTML') for rich.text[from, to). */
export const renderHtml = renderHtmlWith.bind(null, TELEGRAM_HTML);
