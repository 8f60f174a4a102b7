import { decodeEntities } from './entities.ts';

// Chat apps open only these; anything else (javascript:, file:, relative
// paths) is shown as its label rather than risked as a link.
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'tg:', 'mailto:']);

/** The link's target, or null when the link must show as text. */
export function safeHref(raw: string): string | null {
  const href = decodeEntities(raw.trim());
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a link must not hold
  if (href === '' || /[\u0000-\u001f\u007f]/.test(href) || !URL.canParse(href)) return null;
  const url = new URL(href);
  if (!SAFE_PROTOCOLS.has(url.protocol)) return null;
  // Keep what the author wrote unless it needs encoding to be a valid URL.
  return /[\s"<>]/.test(href) ? url.href : href;
}
