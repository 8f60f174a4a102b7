import { describe, expect, it } from 'vitest';
import { markdownToPlainText, markdownToTelegramHtml, splitForTelegram } from './support/telegram.ts';
import { expectPiecesOf } from './support/pieces.ts';
import { checkedSplit as split } from './support/split.ts';
import { telegramHtmlProblems, visibleText } from './support/telegram-html.ts';
import { isWellFormed } from './support/unicode.ts';

const paragraph = (n: number, word = 'word'): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('splitForTelegram', () => {
  it('returns one chunk for a short answer and none for an empty one', () => {
    const md = '**Done.** See `src/x.ts`.';
    expect(split(md)).toEqual([{ html: markdownToTelegramHtml(md), plain: markdownToPlainText(md) }]);
    expect(split('')).toEqual([]);
    expect(split(' \n\n ')).toEqual([]);
  });

  it('cuts between blocks when it can', () => {
    const para = 'x'.repeat(1500);
    const chunks = split([para, para, para].join('\n\n'));
    expect(chunks.map((c) => c.plain)).toEqual([`${para}\n\n${para}`, para]);
  });

  it('does not leave a heading alone at the end of a message', () => {
    const chunks = split(`# Title\n\n${paragraph(1000)}`);
    expect(chunks[0]?.html.startsWith('<b>Title</b>\n\nword0 word1')).toBe(true);
  });

  it('then cuts between lines, then between words', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ${'y'.repeat(20)}`).join('\n');
    for (const chunk of split(lines)) expect(chunk.plain).toMatch(/^line \d+ y{20}(\nline \d+ y{20})*$/);

    const words = paragraph(2000);
    for (const chunk of split(words)) expect(chunk.plain).toMatch(/^word\d+( word\d+)*$/);
  });

  it('cuts inside a word only as a last resort, and never inside a character', () => {
    expect(split('x'.repeat(10_000)).map((c) => c.plain.length)).toEqual([4096, 4096, 1808]);
    // Each 👍🏽 is one grapheme of 4 code units; each family emoji is 8.
    expect(split('👍🏽'.repeat(3000)).map((c) => c.plain.length)).toEqual([4096, 4096, 3808]);
    for (const chunk of split('👨‍👩‍👧'.repeat(1500))) expect(chunk.plain.length % 8).toBe(0);
    for (const chunk of split('🇺🇸'.repeat(600), 101)) expect(chunk.plain.length % 4).toBe(0);
    for (const chunk of split('a😀'.repeat(3000), 100)) expect(isWellFormed(chunk.plain)).toBe(true);
  });

  it('counts escaped characters against the limit', () => {
    const chunks = split('&'.repeat(5000));
    expect(chunks.map((c) => c.html.length)).toEqual([4095, 4095, 4095, 4095, 4095, 4095, 430]);
  });

  it('splits a long code block into closed <pre> parts, reopened with the same language', () => {
    const code = Array.from({ length: 400 }, (_, i) => `  const v${i} = a < b && "c";`).join('\n');
    const chunks = split(`Intro.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nOutro.`);
    expect(chunks[0]?.plain).toBe('Intro.');
    const parts = chunks.slice(1).map(({ html }) => /^<pre><code class="language-ts">([^<]*)<\/code><\/pre>/.exec(html)?.[1]);
    expect(parts.length).toBeGreaterThan(2);
    // Every part is a closed block of its own; cuts fall between lines, so they rejoin to the exact code.
    expect(parts.map((p) => visibleText(p ?? '')).join('\n')).toBe(code);
    expect(chunks.at(-1)?.html.endsWith('</code></pre>\n\nOutro.')).toBe(true);
  });

  it('splits a single over-long code line, keeping its spaces', () => {
    const line = Array.from({ length: 1200 }, (_, i) => `tok${i}`).join(' ');
    const chunks = split(`\`\`\`\n${line}\n\`\`\``);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => visibleText(c.html)).join('')).toBe(line);
    for (const { html } of chunks) expect(html).toMatch(/^<pre>[^]*<\/pre>$/);
  });

  it('reopens blockquotes and links that span a cut', () => {
    const quoted = split(`> ${paragraph(1500)}`);
    expect(quoted.length).toBeGreaterThan(1);
    for (const { html } of quoted) expect(html).toMatch(/^<blockquote>[^]*<\/blockquote>$/);

    const linked = split(`[${paragraph(1500)}](https://example.com/x)`);
    expect(linked.length).toBeGreaterThan(1);
    for (const { html } of linked) expect(html).toMatch(/^<a href="https:\/\/example.com\/x">[^]*<\/a>$/);
    // The plain fallback names the target once, where the link ends.
    expect(linked.filter((c) => c.plain.includes('(https://example.com/x)')).length).toBe(1);
    expect(linked.at(-1)?.plain.endsWith(' (https://example.com/x)')).toBe(true);
  });

  it('drops markup rather than fail when tags alone exceed the limit', () => {
    const href = `https://example.com/${'p'.repeat(200)}`;
    const md = `see [the page](${href}) now`;
    const chunks = splitForTelegram(md, 64);
    for (const { html, plain } of chunks) {
      expect(html.length).toBeLessThanOrEqual(64);
      expect(plain.length).toBeLessThanOrEqual(64);
      expect(telegramHtmlProblems(html)).toEqual([]);
    }
    // The words all survive; only the too-long target is left out.
    expectPiecesOf(
      visibleText(markdownToTelegramHtml(md)),
      chunks.map((c) => visibleText(c.html)),
    );
  });

  it('rejects limits too small for any markup', () => {
    expect(() => splitForTelegram('hello world', 8)).toThrow(RangeError);
  });
});
