import { describe, expect, it } from 'vitest';
import { randomMarkdown, seeded } from './support/generate.ts';
import { checkedSplitWithWhole } from './support/split.ts';

describe('splitForTelegram on generated answers', () => {
  it('keeps 10k and 100k character answers within the limit', () => {
    const r = seeded(7);
    for (const size of [10_000, 100_000]) {
      let md = '';
      while (md.length < size) md += `${randomMarkdown(r)}\n\n`;
      const { chunks, plain } = checkedSplitWithWhole(md, 4096);
      expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(plain.length / 4096));
    }
  });
});

describe('splitForTelegram property: nothing lost, nothing duplicated', () => {
  it('holds for many seeded random documents and limits', () => {
    const r = seeded(20240601);
    for (let i = 0; i < 80; i++) {
      const links = i % 3 !== 0;
      const md = randomMarkdown(r, { links });
      // Small limits force many cuts; from 150 up, any link's tags fit next to some text.
      const limit = i % 10 === 0 ? 4096 : 150 + Math.floor(r() * 500);
      const { visible, plain } = checkedSplitWithWhole(md, limit); // asserts limits, validity, coverage
      // Without links (whose targets plain text spells out) the fallback is exactly the visible HTML text.
      if (!links) expect(plain).toBe(visible);
    }
  });
});
