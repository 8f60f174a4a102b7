import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues } from '../../src/kernel/errors/config-error.ts';

// What is wrong with a file or a message, in words: never JavaScript's own values.
describe('describing invalid fields', () => {
  it('says a field is missing, or not a number, rather than "undefined" or "NaN"', () => {
    const schema = z.object({ prompt: z.string(), timeout: z.number() });
    const result = schema.safeParse({ timeout: Number('ten') });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!.issues)).toBe(
      'field "prompt": missing (expected string); field "timeout": expected number, received something that is not a number',
    );
  });
});
