import { describe, expect, it } from 'vitest';
import { planMarkdown, type Part } from '../../src/work/presentation/deliver.ts';
import { plainText } from '../../src/kernel/rich/index.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

/** A part as the chat shows it without styles. */
const shownAs = (part: Part) => (part.kind === 'text' ? { kind: part.kind, plain: plainText(part.text) } : { kind: part.kind, plain: plainText(part.caption) });

// An answer is planned into messages the chat accepts (fitted as Telegram's): none of them empty.
describe('planning an answer', () => {
  const chat = new RecordingOutbound().fit();

  it('leaves out control characters, so no part of a long answer is left with nothing to show', () => {
    const parts = planMarkdown(`echo: ${'\0`\0`'.repeat(1500)}\u0007 done`, chat, { documentOverChars: 12_000 });
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) {
      const shown = shownAs(part).plain;
      expect(shown.trim()).not.toBe('');
      expect(['\0', '\u0007'].filter((control) => shown.includes(control))).toEqual([]);
    }
    expect(planMarkdown('\0\0\n\0', chat, { documentOverChars: 12_000 }).map(shownAs)).toEqual([{ kind: 'text', plain: '(no text in the answer)' }]);
  });
});
