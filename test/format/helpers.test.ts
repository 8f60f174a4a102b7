import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/work/presentation/format/index.ts';
import { escapeHtml } from './support/telegram.ts';
import { isWellFormed } from './support/unicode.ts';

describe('escapeHtml', () => {
  it('escapes the characters Telegram HTML reserves, and quotes for attributes', () => {
    expect(escapeHtml('<a href="x">&amp;</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml("it's plain")).toBe("it's plain");
  });
});

describe('truncate', () => {
  it('returns short strings unchanged', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('', 0)).toBe('');
  });

  it('cuts to at most n code units, ending with an ellipsis', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('hello world', 7)).toBe('hello…'); // no dangling space before the ellipsis
    expect(truncate('hello world', 8, '...')).toBe('hello...');
    expect(truncate('hello', 1)).toBe('…');
    expect(truncate('hello', 0)).toBe('');
  });

  it('never splits a surrogate pair or a grapheme cluster', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…'); // 😀 would need code units 2..3
    expect(truncate('👍🏽👍🏽👍🏽', 9)).toBe('👍🏽👍🏽…');
    expect(truncate('🇺🇸🇫🇷🇩🇪', 7)).toBe('🇺🇸…');
    expect(truncate('👨‍👩‍👧 family', 8)).toBe('…');
    expect(truncate('cafe\u0301 au lait', 5)).toBe('caf…');
  });

  it('is valid UTF-16 for every cut of an emoji-heavy string', () => {
    const s = 'a😀b👍🏽c🇺🇸d👨‍👩‍👧e';
    for (let n = 0; n <= s.length; n++) {
      const out = truncate(s, n);
      expect(out.length).toBeLessThanOrEqual(n);
      expect(isWellFormed(out)).toBe(true);
    }
  });
});
