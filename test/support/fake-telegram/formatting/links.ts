/**
 * A link as Telegram keeps it in a text_link entity, or undefined when Telegram would drop the
 * entity. A simplification of tdlib's LinkManager::get_checked_link: http(s) links are
 * normalised the way Telegram normalises them (lower-case host, "/" path), a bare domain gets
 * "http://", tg:// and ton:// pass through, anything else is dropped.
 */
export function checkedLink(raw: string): string | undefined {
  const link = raw.trim();
  if (link === '' || /\s/.test(link)) return undefined;
  if (/^(tg|ton):/i.test(link)) return link;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `http://${link}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') return undefined;
  return url.href;
}
