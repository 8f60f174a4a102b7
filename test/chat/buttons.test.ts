import { describe, expect, it } from 'vitest';
import { QUESTION } from '../../src/work/approvals/question.ts';
import { idButton } from '../../src/kernel/ports/buttons.ts';
import { STOP_RUN } from '../../src/work/presentation/runs.ts';
import { REVIEW } from '../../src/work/presentation/review.ts';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// Each kind of button is written and read back by one codec, in the module that owns it; what
// a client sends back that does not decode is answered, never handed to the button's handler.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' } });
const press = (data: string) => t.app.bot.handleButton({ address: chat(-1), user: { id: '1', name: 'Ada' }, data, messageId: '1' });

describe('buttons', () => {
  it("reads back what it wrote, and nothing else, within Telegram's 64 bytes", () => {
    const allow = QUESTION.button('✅ Allow', { id: 'V1StGXR8_Z5jdHi6B-myT', choice: 'always' });
    expect(allow.data).toBe('ap:V1StGXR8_Z5jdHi6B-myT:always');
    expect(QUESTION.decode(allow.data.slice('ap:'.length))).toEqual({ id: 'V1StGXR8_Z5jdHi6B-myT', choice: 'always' });
    for (const raw of ['x:maybe', 'x', ':allow', 'x:allow:more', '../x:allow', ''.padEnd(41, 'x') + ':deny']) expect(QUESTION.decode(raw)).toBeUndefined();
    expect(STOP_RUN.button('⏹ Stop #1', 'V1StGXR8_Z').data).toBe('sa:V1StGXR8_Z');
    for (const raw of ['', 'a b', 'x'.repeat(61), 'a:b']) expect(idButton('x').decode(raw)).toBeUndefined();
    expect(Buffer.byteLength(QUESTION.button('', { id: 'x'.repeat(40), choice: 'always' }).data)).toBeLessThanOrEqual(64);
    const confirm = REVIEW.button('🗑 Discard 2 unmerged commits', { action: 'confirm', runId: 'V1StGXR8_Z', commits: 2 });
    expect(confirm.data).toBe('wt:X:V1StGXR8_Z:2');
    expect(REVIEW.decode('X:V1StGXR8_Z:2')).toEqual({ action: 'confirm', runId: 'V1StGXR8_Z', commits: 2 });
    expect(REVIEW.decode('m:V1StGXR8_Z')).toEqual({ action: 'merge', runId: 'V1StGXR8_Z' });
    // A confirmation must carry its number of commits, and nothing else may.
    for (const raw of ['X:V1StGXR8_Z', 'm:V1StGXR8_Z:2', 'q:V1StGXR8_Z', 'm:', 'm:a b', 'X:id:-1', 'X:id:1e3']) expect(REVIEW.decode(raw)).toBeUndefined();
    expect(Buffer.byteLength(REVIEW.button('', { action: 'confirm', runId: 'x'.repeat(40), commits: 999_999 }).data)).toBeLessThanOrEqual(64);
  });

  it('answers a press whose payload is not one of its kind without calling the handler', async () => {
    let called = 0;
    t.app.bot.button(idButton('probe'), async () => (called++, { text: 'handled' }));
    expect(await press('probe:ok-id')).toEqual({ text: 'handled' });
    for (const data of ['probe:not an id', 'probe', 'ap:x:maybe', 'stop:', 'nothing:x'])
      expect(await press(data)).toEqual({ text: 'This button no longer does anything.' });
    expect(called).toBe(1);
  });
});
