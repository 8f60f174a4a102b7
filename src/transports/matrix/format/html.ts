import { escapeHtml, renderHtmlWith, type HtmlTags } from '../../../kernel/rich/html.ts';

export { escapeHtml } from '../../../kernel/rich/html.ts';

/**
 * Matrix's `org.matrix.custom.html`: the tags the spec lets clients show. Lines outside
 * preformatted blocks are joined by <br>, as HTML would run them together.
 */
const MATRIX_HTML: HtmlTags = {
  bold: { open: '<strong>', close: '</strong>' },
  italic: { open: '<em>', close: '</em>' },
  strike: { open: '<del>', close: '</del>' },
  code: { open: '<code>', close: '</code>' },
  quote: { open: '<blockquote>', close: '</blockquote>' },
  pre: (language) =>
    language === ''
      ? { open: '<pre><code>', close: '</code></pre>' }
      : { open: `<pre><code class="language-${escapeHtml(language)}">`, close: '</code></pre>' },
  codeInPre: false,
  text: (text, preformatted) => (preformatted ? escapeHtml(text) : escapeHtml(text).replaceAll('\n', '<br>')),
};

/** The `formatted_body` for rich.text[from, to). */
export const renderHtml = renderHtmlWith.bind(null, MATRIX_HTML);
