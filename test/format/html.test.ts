import { describe, expect, it } from 'vitest';
import { markdownToTelegramHtml } from './support/telegram.ts';
import { telegramHtmlProblems } from './support/telegram-html.ts';

/** Renders and checks the result is HTML Telegram accepts. */
function html(md: string): string {
  const out = markdownToTelegramHtml(md);
  expect(telegramHtmlProblems(out)).toEqual([]);
  return out;
}

describe('markdownToTelegramHtml: inline', () => {
  it('renders bold, italic, strikethrough and inline code', () => {
    expect(html('**bold** and __bold__')).toBe('<b>bold</b> and <b>bold</b>');
    expect(html('*it* and _it_')).toBe('<i>it</i> and <i>it</i>');
    expect(html('***both***')).toBe('<b><i>both</i></b>');
    expect(html('~~gone~~')).toBe('<s>gone</s>');
    expect(html('run `a < b && c`')).toBe('run <code>a &lt; b &amp;&amp; c</code>');
  });

  it('nests emphasis', () => {
    expect(html('**bold _nested_**')).toBe('<b>bold <i>nested</i></b>');
  });

  it('keeps code out of other entities, as Telegram requires', () => {
    expect(html('**bold `code` bold**')).toBe('<b>bold </b><code>code</code><b> bold</b>');
    expect(html('[**b** `c`](https://x.y)')).toBe('<a href="https://x.y"><b>b</b> c</a>');
  });

  it('keeps soft and hard line breaks as newlines', () => {
    expect(html('line one\nline two  \nline three')).toBe('line one\nline two\nline three');
  });
});

describe('markdownToTelegramHtml: links', () => {
  it('links http(s), tg and mailto targets, escaping the href', () => {
    expect(html('[ok](https://a.b/c?d=1&e=2)')).toBe('<a href="https://a.b/c?d=1&amp;e=2">ok</a>');
    expect(html('[me](tg://user?id=42)')).toBe('<a href="tg://user?id=42">me</a>');
    expect(html('[mail](mailto:a@b.c)')).toBe('<a href="mailto:a@b.c">mail</a>');
    expect(html('[q](https://x.y/?a="b")')).toBe('<a href="https://x.y/?a=%22b%22">q</a>');
  });

  it('shows unsafe or relative links as their text', () => {
    expect(html('[js](javascript:alert(1)) [rel](./src/x.ts) [ftp](ftp://x.y) [d](data:text/html,hi)')).toBe('js rel ftp d');
  });

  it('links autolinks, bare URLs and e-mail addresses', () => {
    expect(html('<https://a.b/c> www.x.com me@x.com')).toBe(
      '<a href="https://a.b/c">https://a.b/c</a> <a href="http://www.x.com">www.x.com</a> ' + '<a href="mailto:me@x.com">me@x.com</a>',
    );
  });

  it('turns images into links, and empty labels into the URL', () => {
    expect(html('![diagram](https://x.y/d.png)')).toBe('<a href="https://x.y/d.png">diagram</a>');
    expect(html('![](https://x.y/d.png) [](https://e.com)')).toBe(
      '<a href="https://x.y/d.png">https://x.y/d.png</a> <a href="https://e.com">https://e.com</a>',
    );
    expect(html('![alt](javascript:x)')).toBe('alt');
  });
});

describe('markdownToTelegramHtml: blocks', () => {
  it('renders fenced code with and without a language', () => {
    expect(html('```ts\nlet x = 1 < 2;\n```')).toBe('<pre><code class="language-ts">let x = 1 &lt; 2;</code></pre>');
    expect(html('```\nplain\n```')).toBe('<pre>plain</pre>');
    expect(html('~~~c++ title="x"\nint main();\n~~~')).toBe('<pre><code class="language-c++">int main();</code></pre>');
    expect(html('```"><b>\nx\n```')).toBe('<pre>x</pre>');
    expect(html('    indented')).toBe('<pre>indented</pre>');
  });

  it('renders an unclosed fence (a truncated answer) to the end', () => {
    expect(html('Try:\n\n```python\nprint(1)\nprint(2')).toBe('Try:\n\n<pre><code class="language-python">print(1)\nprint(2</code></pre>');
  });

  it('turns headings into bold lines', () => {
    expect(html('# Title *it*\n\ntext')).toBe('<b>Title <i>it</i></b>\n\ntext');
    expect(html('## H2 with `code`')).toBe('<b>H2 with </b><code>code</code>');
  });

  it('renders nested bullet and ordered lists with indentation', () => {
    expect(html('- a\n- **b**\n  - c\n    - d\n- e')).toBe('• a\n• <b>b</b>\n  • c\n    • d\n• e');
    expect(html('3. x\n4. y\n   1. z')).toBe('3. x\n4. y\n   1. z');
    expect(html('- [ ] todo\n- [x] done')).toBe('☐ todo\n☑ done');
  });

  it('puts a code block in a list item on its own', () => {
    expect(html('1. step\n\n   ```sh\n   npm i\n   ```\n2. next')).toBe('1. step\n\n<pre><code class="language-sh">npm i</code></pre>\n\n2. next');
  });

  it('renders a table as an aligned <pre> block', () => {
    const md = '| Name | Qty |\n|:-----|----:|\n| apple | 3 |\n| **kiwi** & <b> | 12 |';
    expect(html(md)).toBe('<pre>Name       │ Qty\n' + '───────────┼────\n' + 'apple      │   3\n' + 'kiwi &amp; &lt;b&gt; │  12</pre>');
  });

  it('renders blockquotes, flattening nested ones and moving code out', () => {
    expect(html('> q1\n> q2\n\nafter')).toBe('<blockquote>q1\nq2</blockquote>\n\nafter');
    expect(html('> outer\n> > inner')).toBe('<blockquote>outer\n\ninner</blockquote>');
    expect(html('> - item\n> ```js\n> code\n> ```')).toBe('<blockquote>• item</blockquote>\n\n<pre><code class="language-js">code</code></pre>');
  });

  it('renders horizontal rules as a line of dashes', () => {
    expect(html('above\n\n---\n\nbelow')).toBe('above\n\n———\n\nbelow');
  });
});

describe('markdownToTelegramHtml: escaping and tricky text', () => {
  it('escapes raw HTML instead of passing it through', () => {
    expect(html('<script>alert("x")</script>')).toBe('&lt;script&gt;alert("x")&lt;/script&gt;');
    expect(html('para <b>bold tag</b> <a href="x">a</a>')).toBe('para &lt;b&gt;bold tag&lt;/b&gt; &lt;a href="x"&gt;a&lt;/a&gt;');
    expect(html('<div>\nraw & <i>\n</div>')).toBe('&lt;div&gt;\nraw &amp; &lt;i&gt;\n&lt;/div&gt;');
  });

  it('escapes & < > in text and resolves entities written in Markdown', () => {
    expect(html('a & b < c > d')).toBe('a &amp; b &lt; c &gt; d');
    expect(html('&amp; &lt;tag&gt; &copy; &#169; &#x1F600; &bogus;')).toBe('&amp; &lt;tag&gt; © © 😀 &amp;bogus;');
  });

  it('leaves underscores in identifiers alone', () => {
    expect(html('snake_case_name and _private_var and file_name_v2.py')).toBe('snake_case_name and _private_var and file_name_v2.py');
  });

  it('leaves * in arithmetic alone', () => {
    expect(html('2*3*4, a * b * c, x*y = 5, a**b**c')).toBe('2*3*4, a * b * c, x*y = 5, a**b**c');
    expect(html('*emphasis* still works, so does 2 *times*')).toBe('<i>emphasis</i> still works, so does 2 <i>times</i>');
  });

  it('handles backslash escapes', () => {
    expect(html('\\*not italic\\* \\<b\\>')).toBe('*not italic* &lt;b&gt;');
  });

  it('returns an empty string for empty input', () => {
    expect(html('')).toBe('');
    expect(html('  \n\n ')).toBe('');
  });
});
