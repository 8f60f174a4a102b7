/** Code as Discord shows it: a fenced block or inline code, whose text is taken as it is. */
const CODE = /```[^\n]*\n([\s\S]*?)\n?```|`` (.*?) ``|(?<!\\)`([^`]*)`/g;

/**
 * A message's Markdown as a reader sees it in Discord's client: code fences, quote marks,
 * bold, italics, strike, inline code and masked links rendered away, escapes taken out.
 */
export function readable(content: string): string {
  let out = '';
  let at = 0;
  for (const match of content.matchAll(CODE)) {
    out += words(content.slice(at, match.index));
    out += match[1] ?? match[2] ?? match[3] ?? '';
    at = match.index + match[0].length;
  }
  return (out + words(content.slice(at))).replace(/\u200b/g, '');
}

function words(text: string): string {
  return (
    text
      .replace(/^>>?>? /gm, '')
      .replace(/\[((?:\\.|[^\]\\])*)\]\(<([^>]*)>\)/g, '$1')
      .replace(/<(https?:[^>\s]+)>/g, '$1')
      .replace(/(?<!\\)(\*\*|~~)/g, '')
      .replace(/(?<!\\)\*(?=\S)([^*]*?\S)(?<!\\)\*/g, '$1')
      .replace(/(?<![\\\w])_(?=\S)/g, '')
      .replace(/(?<=\S)(?<!\\)_(?!\w)/g, '')
      // Discord takes a backslash before any sign as an escape; before a letter or digit it shows.
      .replace(/\\([^0-9A-Za-z\s])/g, '$1')
  );
}
