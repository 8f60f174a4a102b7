import { describe, expect, it } from 'vitest';
import { planMarkdown } from '../../src/presentation/deliver.ts';

// An answer is planned into messages Telegram accepts: none of them empty.
describe('planning an answer', () => {
  it('leaves out control characters, so no part of a long answer is left with nothing to show', () => {
    const parts = planMarkdown(`echo: ${'\0`\0`'.repeat(1500)}\u0007 done`, { documentOverChars: 12_000 });
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) {
      const shown = part.kind === 'text' ? part.text.plain : part.caption.plain;
      expect(shown.trim()).not.toBe('');
      expect(['\0', '\u0007'].filter((control) => shown.includes(control))).toEqual([]);
    }
    expect(planMarkdown('\0\0\n\0', { documentOverChars: 12_000 })).toMatchObject([{ kind: 'text', text: { plain: '(no text in the answer)' } }]);
  });
});
