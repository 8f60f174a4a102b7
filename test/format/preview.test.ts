import { describe, expect, it } from 'vitest';
import { documentPreview, markdownToTelegramHtml } from './support/telegram.ts';
import { randomMarkdown, seeded } from './support/generate.ts';
import { telegramHtmlProblems, visibleText } from './support/telegram-html.ts';

function preview(md: string, maxChars?: number): string {
  const html = documentPreview(md, maxChars);
  expect(html.length).toBeLessThanOrEqual(maxChars ?? 900);
  expect(telegramHtmlProblems(html)).toEqual([]);
  return html;
}

describe('documentPreview', () => {
  it('returns a short answer whole, without an ellipsis', () => {
    expect(preview('**Done**: all tests pass.')).toBe('<b>Done</b>: all tests pass.');
  });

  it('keeps the first paragraphs and marks the cut on its own line', () => {
    const para = (n: number): string => `Paragraph ${n} ${'text '.repeat(60).trim()}.`;
    const md = [1, 2, 3, 4, 5].map(para).join('\n\n');
    expect(preview(md)).toBe(`${para(1)}\n\n${para(2)}\n…`);
  });

  it('cuts a single long paragraph between words', () => {
    const html = preview(`**Summary** ${'word '.repeat(400)}`, 100);
    expect(html).toBe(`<b>Summary</b> ${'word '.repeat(16).trim()}…`);
  });

  it('closes a code block it cuts into', () => {
    const code = Array.from({ length: 100 }, (_, i) => `line ${i} <ok>`).join('\n');
    const html = preview(`\`\`\`js\n${code}\n\`\`\``, 200);
    expect(html).toMatch(/^<pre><code class="language-js">line 0 &lt;ok&gt;\n[^]*<\/code><\/pre>\n…$/);
  });

  it('is a valid prefix of the answer for generated documents', () => {
    const r = seeded(99);
    for (let i = 0; i < 20; i++) {
      const md = randomMarkdown(r);
      const html = preview(md, 1024);
      const shown = visibleText(html).replace(/\n?…$/, '');
      expect(visibleText(markdownToTelegramHtml(md)).startsWith(shown)).toBe(true);
    }
  });
});
