// A strict model of what Telegram's HTML parse mode accepts, for asserting
// on rendered output: only known tags, balanced, legal nesting, valid entities.

const TAG = /<(\/?)([a-z]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/y;
const ENTITY = /&(?:lt|gt|amp|quot|#\d{1,7}|#x[0-9a-f]{1,6});/iy;
const ALLOWED = new Set(['b', 'i', 's', 'u', 'code', 'pre', 'a', 'blockquote']);
const SAFE_HREF = /^(?:https?:|tg:|mailto:)/i;

/** Returns the problems found; an empty list means Telegram will accept it. */
export function telegramHtmlProblems(html: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let i = 0;
  while (i < html.length) {
    const c = html[i];
    if (c === '<') {
      TAG.lastIndex = i;
      const m = TAG.exec(html);
      if (!m) {
        problems.push(`bare "<" at ${i}`);
        i++;
        continue;
      }
      const [whole, slash, name = '', attrs = ''] = m;
      if (!ALLOWED.has(name)) problems.push(`tag <${name}> not allowed`);
      if (slash) {
        const top = stack.pop();
        if (top !== name) problems.push(`</${name}> closes <${top ?? 'nothing'}> at ${i}`);
      } else {
        problems.push(...nestingProblems(name, attrs, stack));
        stack.push(name);
      }
      i += whole.length;
    } else if (c === '>') {
      problems.push(`bare ">" at ${i}`);
      i++;
    } else if (c === '&') {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(html);
      if (!m) problems.push(`bad entity at ${i}: ${html.slice(i, i + 10)}`);
      i += m ? m[0].length : 1;
    } else {
      i++;
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  return problems;
}

function nestingProblems(name: string, attrs: string, stack: readonly string[]): string[] {
  const problems: string[] = [];
  const parent = stack.at(-1);
  if (parent === 'code') problems.push(`<${name}> inside <code>`);
  if (parent === 'pre' && name !== 'code') problems.push(`<${name}> inside <pre>`);
  if (name === 'pre' && stack.length > 0) problems.push(`<pre> inside <${stack.join('><')}>`);
  if (name === 'blockquote' && stack.length > 0) problems.push(`<blockquote> inside <${stack.join('><')}>`);
  if (name === 'a' && stack.includes('a')) problems.push('nested <a>');
  if (name === 'code' && stack.includes('a')) problems.push('<code> inside <a>');
  if (name === 'a') {
    const href = /^\s+href="([^"]*)"$/.exec(attrs)?.[1];
    if (href === undefined) problems.push(`<a> needs exactly one href, got "${attrs}"`);
    else if (!SAFE_HREF.test(unescapeHtml(href))) problems.push(`unsafe href ${href}`);
  } else if (name === 'code' && parent === 'pre') {
    if (attrs !== '' && !/^\s+class="language-[\w+#.-]+"$/.test(attrs)) problems.push(`bad code class "${attrs}"`);
  } else if (attrs !== '') {
    problems.push(`<${name}> takes no attributes, got "${attrs}"`);
  }
  return problems;
}

export function unescapeHtml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'amp') return '&';
    if (lower === 'quot') return '"';
    return String.fromCodePoint(lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10));
  });
}

/** What the user sees: tags removed, entities resolved. */
export function visibleText(html: string): string {
  return unescapeHtml(html.replace(/<[^>]*>/g, ''));
}
