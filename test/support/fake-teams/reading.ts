// What a reader sees of a bot's text, as Teams renders it: a message's HTML (textFormat xml)
// and an Adaptive Card's Markdown. Markup Teams would not show is reported, so a test can
// tell a message Teams would mangle from one it shows as meant.

/** The tags Teams shows in a bot's HTML message (and <at>, <p>, <span> it writes itself); others it drops, keeping their text. */
const SHOWN_TAGS = new Set(['strong', 'b', 'em', 'i', 'strike', 's', 'del', 'code', 'pre', 'blockquote', 'a', 'br', 'p', 'span', 'at', 'ul', 'ol', 'li']);
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

/** A message's HTML as shown: tags applied (dropped from the text), <br> a line break, white space outside <pre> run together, entities undone; and what is wrong with it. */
export function readTeamsHtml(html: string): { text: string; problems: string[] } {
  const problems: string[] = [];
  const open: string[] = [];
  let text = '';
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:"[^"]*"|'[^']*'|[^>"'])*)>|&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);|[^<&]+|[<&]/g)) {
    const [whole, closing, tag, attributes, entity] = m;
    if (tag) {
      const name = tag.toLowerCase();
      if (!SHOWN_TAGS.has(name)) problems.push(`<${name}> is not shown by Teams`);
      if (name === 'br') text += '\n';
      else if (closing) {
        if (open.at(-1) === name) open.pop();
        else problems.push(`</${name}> closes ${open.length ? `<${open.at(-1)}>` : 'nothing'}`);
      } else if (!/\/\s*$/.test(attributes ?? '')) open.push(name);
      continue;
    }
    if (entity) {
      const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : entity.startsWith('#') ? Number(entity.slice(1)) : undefined;
      const decoded = code !== undefined ? String.fromCodePoint(code) : ENTITIES[entity.toLowerCase()];
      if (decoded === undefined) problems.push(`&${entity}; is no entity`);
      text += decoded ?? whole;
      continue;
    }
    if (whole === '<' || whole === '&') problems.push(`a bare ${whole} in the text`);
    // Outside a preformatted block HTML runs white space together, line breaks included.
    text += open.includes('pre') ? whole : whole.replace(/[ \t\r\n]+/g, ' ');
  }
  if (open.length) problems.push(`left open: ${open.map((t) => `<${t}>`).join('')}`);
  return { text, problems };
}

/** Private-use stand-ins for escaped characters while markup is read. */
const STAND_IN = 0xe000;

/** A card text block's Markdown as shown: **bold**, _italic_ (or *italic*) and [links](…) applied, escapes undone, a blank line a line break (a lone one a space). */
export function readCardMarkdown(markdown: string): string {
  return markdown
    .replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => String.fromCharCode(STAND_IN + c.charCodeAt(0)))
    .replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1')
    .replace(/\*\*([\s\S]*?)\*\*/g, '$1')
    .replace(/(^|[^\p{L}\p{N}*])\*(?!\s)([^*]+?)\*(?![\p{L}\p{N}*])/gu, '$1$2')
    .replace(/(^|[^\p{L}\p{N}])_([\s\S]*?)_(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/\n+/g, (run) => (run.length === 1 ? ' ' : '\n'.repeat(run.length >> 1)))
    .replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - STAND_IN));
}
