import { describe, expect, it } from 'vitest';
import { telegramHtmlProblems, visibleText } from './support/telegram-html.ts';

// The other tests lean on this validator, so it must catch what Telegram rejects.
describe('test validator for Telegram HTML', () => {
  it('accepts the subset we produce', () => {
    const ok =
      '<b>a <i>b</i></b> <s>c</s> <code>&lt;x&gt;</code> <a href="https://x.y/?a=1&amp;b=2">l</a>\n' +
      '<pre><code class="language-ts">x &amp;&amp; y</code></pre><blockquote>q</blockquote> &#169; &quot;';
    expect(telegramHtmlProblems(ok)).toEqual([]);
    expect(visibleText(ok)).toBe('a b c <x> l\nx && yq © "');
  });

  it.each([
    ['<b>unclosed', 'unclosed'],
    ['<b><i>x</b></i>', 'closes'],
    ['<div>x</div>', 'not allowed'],
    ['a & b', 'bad entity'],
    ['a < b', 'bare "<"'],
    ['<a href="javascript:alert(1)">x</a>', 'unsafe href'],
    ['<pre><b>x</b></pre>', 'inside <pre>'],
    ['<b><pre>x</pre></b>', '<pre> inside'],
    ['<blockquote><blockquote>x</blockquote></blockquote>', '<blockquote> inside'],
    ['<a href="https://x"><code>x</code></a>', '<code> inside <a>'],
    ['<b class="x">y</b>', 'no attributes'],
  ])('rejects %s', (html, problem) => {
    expect(telegramHtmlProblems(html).join('; ')).toContain(problem);
  });
});
