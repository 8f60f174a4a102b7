// HTML escaping for Telegram's HTML parse mode, which understands only
// &lt; &gt; &amp; &quot; and numeric references.

const ATTR_CHARS = /[&<>"]/g;
const TEXT_CHARS = /[&<>]/g;
const REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** Escapes `s` so it is safe both as element text and inside a double-quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(ATTR_CHARS, (c) => REPLACEMENTS[c] ?? c);
}

/**
 * Escapes element text only. Leaving `"` alone keeps code-heavy chunks shorter,
 * which matters because chunk limits are measured on the HTML source.
 */
export function escapeText(s: string): string {
  // Chunking renders each range many times; most text needs no escaping.
  if (!/[&<>]/.test(s)) return s;
  return s.replace(TEXT_CHARS, (c) => REPLACEMENTS[c] ?? c);
}

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
