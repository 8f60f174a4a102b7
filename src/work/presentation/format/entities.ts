// The Markdown side of text: the entities an answer may hold, and escaping
// words put into Markdown so they show as typed.

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
};

/**
 * Decodes the few named entities people actually write in Markdown. marked
 * already decodes numeric references but leaves named ones for a browser to
 * resolve; we escape everything ourselves, so we resolve the common ones here.
 */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&([a-z]+);/g, (match, name: string) => NAMED_ENTITIES[name] ?? match);
}

/** Markdown that shows these characters as they are (for names and errors put into an agent's Markdown). */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|~])/g, '\\$1');
}
