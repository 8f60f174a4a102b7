import { escapeHtmlText, renderHtmlWith, type HtmlTags } from '../../../kernel/rich/html.ts';

/**
 * The HTML a bot's message carries with `textFormat: 'xml'`: the tags Microsoft documents for
 * text messages (<strong>, <em>, <strike>, <pre>, <blockquote>, <a href>), and <code> for
 * inline code, as Teams writes its own messages. Outside a block lines are joined by <br>, as
 * HTML would run them together; a block's language is Teams' to guess (it documents none).
 */
const TEAMS_HTML: HtmlTags = {
  bold: { open: '<strong>', close: '</strong>' },
  italic: { open: '<em>', close: '</em>' },
  strike: { open: '<strike>', close: '</strike>' },
  code: { open: '<code>', close: '</code>' },
  quote: { open: '<blockquote>', close: '</blockquote>' },
  pre: () => ({ open: '<pre>', close: '</pre>' }),
  codeInPre: false,
  text: (text, preformatted) => (preformatted ? escapeHtmlText(text) : escapeHtmlText(text).replaceAll('\n', '<br>')),
};

/** A message's text as Teams HTML, for rich.text[from, to). */
export const renderTeamsHtml = renderHtmlWith.bind(null, TEAMS_HTML);
