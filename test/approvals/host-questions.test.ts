import { describe, expect, it } from 'vitest';
import { HostQuestions } from '../../src/work/approvals/host-questions.ts';
import { buttonKindOf, type ButtonHandler } from '../../src/kernel/ports/buttons.ts';
import { silentLog } from '../support/silent-log.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat, user } from '../support/chats.ts';

// A host a sandboxed agent reaches for, asked of its chat in `ask` (the whole way, through the
// real bridge and a real sandbox: test/sandbox/sandbox-ask.test.ts).
function questions(timeoutMs: number) {
  const out = new RecordingOutbound();
  const members = new Set(['1']);
  let handler: ButtonHandler<unknown> | undefined;
  const hosts = new HostQuestions({ out, timeoutMs, mayAnswer: async (_chat, who) => members.has(who.id), log: silentLog() });
  hosts.wire((_kind, handle) => (handler = handle as ButtonHandler<unknown>));
  const press = async (text: string, userId: number) => {
    const button = out.sent
      .at(-1)!
      .buttons.flat()
      .find((b) => b.text === text)!;
    const { raw } = buttonKindOf(button.data);
    const [id, choice] = raw.split(':');
    return handler!({ address: chat(-9), user: user(userId, userId === 1 ? 'Ada' : 'Mallory'), data: button.data, messageId: '1' }, { id, choice });
  };
  return { out, hosts, press };
}

describe('a question about a host', () => {
  it('is answered only by the chat’s people: a press by anyone else leaves it open', async () => {
    const { out, hosts, press } = questions(5000);
    const asked = hosts.ask(chat(-9), 'claude', { target: 'example.com:443', address: '93.184.216.34' }, true);
    await expect.poll(() => out.sent.length).toBe(1);
    // It names the host, the port and the address an Allow lets the connection reach.
    expect(out.sent[0]!.text).toContain("claude asks to reach example.com:443 at 93.184.216.34, which is not on this chat's list (/net).");
    expect(out.sent[0]!.buttons.flat().map((b) => b.text)).toEqual(['✅ Allow once', '✅ Allow for this session', '⛔ Deny']);
    expect(await press('✅ Allow once', 2)).toEqual({ text: '⛔ Only people of this chat may answer it.', alert: true });
    expect(await press('✅ Allow for this session', 1)).toEqual({ text: '✅ Allowed for this session' });
    expect(await asked).toEqual({ choice: 'session', by: 'Ada' });
    await expect.poll(() => out.sent[0]!.edits.at(-1)).toContain('✅ Allowed for this session by Ada');
    expect(await press('⛔ Deny', 1)).toEqual({ text: 'This request was already answered.' });
  });

  it('is withdrawn when its connection closes before an answer', async () => {
    const { out, hosts, press } = questions(5000);
    const gone = new AbortController();
    const asked = hosts.ask(chat(-9), 'claude', { target: 'example.com:443', address: '93.184.216.34' }, true, gone.signal);
    await expect.poll(() => out.sent.length).toBe(1);
    gone.abort();
    expect(await asked).toEqual({ choice: 'gone' });
    await expect.poll(() => out.sent[0]!.edits.at(-1)).toContain('The connection closed before an answer');
    expect(await press('✅ Allow once', 1)).toEqual({ text: 'This request was already answered.' });
  });

  it('is refused when nobody answers within the approval timeout, and offers nothing for the session on a turn no person typed', async () => {
    const { out, hosts } = questions(1000);
    const asked = hosts.ask(chat(-9), 'claude', { target: 'example.com:443', address: '93.184.216.34' }, false);
    await expect.poll(() => out.sent.length).toBe(1);
    expect(out.sent[0]!.buttons.flat().map((b) => b.text)).toEqual(['✅ Allow once', '⛔ Deny']);
    expect(await asked).toEqual({ choice: 'timeout' });
    await expect.poll(() => out.sent[0]!.edits.at(-1)).toContain('⛔ Denied: no answer within 1 s');
  });
});
