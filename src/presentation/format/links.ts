import { decodeEntities } from './escape.ts';

// Telegram only opens these; anything else (javascript:, file:, relative
// paths) is shown as its label rather than risked as a link.
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'tg:', 'mailto:']);

/** The href to put in `<a href>`, or null when the link must render as text. */
export function safeHref(raw: string): string | null {
  const href = decodeEntities(raw.trim());
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a link must not hold
  if (href === '' || /[\u0000-\u001f\u007f]/.test(href)) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (!SAFE_PROTOCOLS.has(url.protocol)) return null;
  // Keep what the author wrote unless it needs encoding to be a valid URL.
  return /[\s"<>]/.test(href) ? url.href : href;
}

/** True when the label already shows the target, so plain text needn't repeat it. */
export function labelShowsHref(label: string, href: string): boolean {
  const bare = (s: string): string =>
    s
      .trim()
      .replace(/^(?:https?:\/\/|mailto:)/i, '')
      .replace(/\/$/, '');
  return bare(label) === bare(href);
}
