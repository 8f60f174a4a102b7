import { describe, expect, it } from 'vitest';
import { DISCORD_FIT } from '../../src/transports/discord/capabilities.ts';
import { escapeMarkdown, renderMarkdown } from '../../src/work/presentation/format/markdown.ts';
import { parseMarkdown } from '../../src/work/presentation/format/parse.ts';
import { plainText } from '../../src/kernel/rich/index.ts';
import { readable } from '../support/fake-discord/index.ts';
import { randomMarkdown, seeded } from '../format/support/generate.ts';

const md = (text: string) => renderMarkdown(parseMarkdown(text));

describe("an answer as Discord's Markdown", () => {
  it('writes the styles the agent used', () => {
    expect(md('**bold** and *italic* and ~~gone~~ and `x = 1`')).toBe('**bold** and *italic* and ~~gone~~ and `x = 1`');
    // Inside a word, and touching another run's markers.
    expect(md('2*3* and **a***b*')).toBe('2*3* and **a**\u200b*b*');
    expect(md('```ts\nconst a = 1;\n```')).toBe('```ts\nconst a = 1;\n```');
    expect(md('[the docs](https://example.com/a_b)')).toBe('[the docs](<https://example.com/a_b>)');
  });

  it('keeps markers out of whitespace, where Discord would not read them', () => {
    expect(md('a **bold words **b')).not.toMatch(/\*\* |[^ ]\*\*b/);
  });

  it("escapes what would be Markdown in the agent's words, mentions and headings included, but not inside links", () => {
    expect(escapeMarkdown('2*3*4 snake_case <@123> ~~x~~ |spoiler|')).toBe('2\\*3\\*4 snake\\_case \\<@123> \\~\\~x\\~\\~ \\|spoiler\\|');
    expect(escapeMarkdown('# not a heading\n- not a list\n1. not numbered')).toBe('\\# not a heading\n\\- not a list\n1\\. not numbered');
    expect(escapeMarkdown('see https://example.com/a_b*c for it')).toBe('see https://example.com/a_b*c for it');
  });

  it('keeps a code block closed whatever it holds, and inline code with backticks', () => {
    expect(md('```\nprint("```")\n```')).toBe('```\nprint("`\u200b``")\n```');
    expect(md('use `` a`b `` here')).toBe('use `` a`b `` here');
  });

  it('reads back as the text it was made from', () => {
    const r = seeded(40);
    for (let i = 0; i < 40; i++) {
      const rich = parseMarkdown(randomMarkdown(r, { links: false }));
      expect(readable(renderMarkdown(rich)).replace(/\s+/g, ' ').trim()).toBe(plainText(rich).replace(/\s+/g, ' ').trim());
    }
  });
});

describe("the split at Discord's 2,000 characters", () => {
  it('keeps each message within 2,000 characters as sent, losing nothing, on generated answers', () => {
    const r = seeded(2000);
    for (let i = 0; i < 30; i++) {
      let text = '';
      while (text.length < 3000 + i * 500) text += `${randomMarkdown(r, { links: i % 2 === 0 })}\n\n`;
      const rich = parseMarkdown(text);
      const parts = DISCORD_FIT.split(rich);
      for (const part of parts) expect(renderMarkdown(part).length).toBeLessThanOrEqual(2000);
      const joined = parts.map((p) => p.text).join('');
      expect(joined.replace(/\s+/g, '')).toBe(rich.text.replace(/\s+/g, ''));
    }
  });

  it('leaves room for a header and a footer, and previews a long answer within a message', () => {
    const rich = parseMarkdown(Array.from({ length: 40 }, (_, i) => `**Paragraph ${i}.** ${'words '.repeat(40)}`).join('\n\n'));
    const header = parseMarkdown('**⚙️ claude · done**');
    const footer = parseMarkdown('_✅ 0:03 · 2 steps_');
    const parts = DISCORD_FIT.split(rich, { header, footer });
    expect(parts.length).toBeGreaterThan(4);
    for (const part of parts) expect(renderMarkdown(part).length).toBeLessThanOrEqual(2000);
    expect(renderMarkdown(parts[0]!).startsWith('**⚙️ claude · done**')).toBe(true);
    expect(renderMarkdown(parts.at(-1)!).endsWith('*✅ 0:03 · 2 steps*')).toBe(true);
    const preview = DISCORD_FIT.preview(rich)!;
    expect(renderMarkdown(preview).length).toBeLessThanOrEqual(1500);
    expect(preview.text.endsWith('…')).toBe(true);
  });
});
