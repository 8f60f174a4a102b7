import { badRequest } from '../api-error.ts';
import { withAutoEntities } from './auto-entities.ts';
import { EntityParseError, type FormattedText } from './entities.ts';
import { readExplicitEntities } from './explicit-entities.ts';
import { parseHtml } from './html.ts';
import { parseMarkdown } from './markdown.ts';
import { parseMarkdownV2 } from './markdown-v2.ts';
import { normalizeText } from './normalize.ts';

export type ParseMode = 'HTML' | 'MarkdownV2' | 'Markdown';

/** Telegram matches parse_mode case-insensitively; an empty value means plain text. */
export function readParseMode(raw: string | undefined): ParseMode | undefined {
  if (raw === undefined || raw === '') return undefined;
  switch (raw.toLowerCase()) {
    case 'html':
      return 'HTML';
    case 'markdownv2':
      return 'MarkdownV2';
    case 'markdown':
      return 'Markdown';
    default:
      throw badRequest('unsupported parse_mode');
  }
}

const PARSERS: Record<ParseMode, (source: string) => FormattedText> = {
  HTML: parseHtml,
  MarkdownV2: parseMarkdownV2,
  Markdown: parseMarkdown,
};

/**
 * Turns a text parameter into what Telegram stores: parsed by parse_mode (or formatted by
 * explicit entities), normalised, with auto-detected entities added. Returns undefined when no
 * visible text is left, so that each method can word that case as Telegram does.
 */
export function formatText(source: string, parseMode: ParseMode | undefined, explicitEntities: unknown): FormattedText | undefined {
  let parsed: FormattedText;
  if (parseMode !== undefined) {
    try {
      parsed = PARSERS[parseMode](source);
    } catch (error) {
      if (error instanceof EntityParseError) throw badRequest(`can't parse entities: ${error.message}`);
      throw error;
    }
  } else {
    const entities = explicitEntities === undefined ? [] : readExplicitEntities(explicitEntities, source.length);
    parsed = { text: source, entities };
  }
  const normalized = normalizeText(parsed);
  return normalized && withAutoEntities(normalized);
}
