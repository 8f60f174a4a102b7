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
