import { describe, expect, it } from 'vitest';
import { ChatMessages } from '../../src/chat/session/chat-messages.ts';
import type { ChatSession } from '../../src/chat/session/chat-session.ts';
import { messageKey, type Command, type CommandEffect, type CommandScope } from '../../src/chat/dispatch/command.ts';
import { replayCommands } from '../../src/chat/dispatch/command-replay.ts';
import { silentLog } from '../support/silent-log.ts';
import { RESUME_ATTEMPTS } from '../../src/kernel/policy/resume-attempts.ts';
import type { IncomingMessage } from '../../src/kernel/ports/chat.ts';
import type { ChatRecord } from '../../src/kernel/store/chat-store.ts';
import { chat as chatRef } from '../support/chats.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

const ADDRESS = chatRef(-7);
const ADA = { id: '1', name: 'Ada' };
const FILE = { path: '/work/.bridge/inbox/a.log', kind: 'document' as const, bytes: 3 };

/** A chat whose record lives in memory, with the real ChatMessages over it. */
function chatWith(record: Partial<ChatRecord>): ChatSession {
  let current = { key: 'telegram:-7', chat: ADDRESS, cli: 'fake', workdir: '/work', updatedAt: 0, ...record };
  const messages = new ChatMessages(
    () => current,
    async (patch) => void (current = { ...current, ...patch }),
  );
  return {
    address: ADDRESS,
    get record() {
      return current;
    },
    messages,
  } as unknown as ChatSession;
}

const message = (messageId: string, text: string): IncomingMessage => ({ address: ADDRESS, user: ADA, messageId, text });

/** `/make`: its work is what `made` holds, by message key. */
function world(made: Set<string>, effect?: (key: string, args: string) => CommandEffect | undefined) {
  const make: Command = {
    name: 'make',
    description: '',
    usage: '/make',
    access: 'member',
    startsWork: true,
    effectOf: effect ?? ((key) => ({ kind: made.has(key) ? 'done' : 'none' })),
    run: async () => {},
  };
  const look: Command = { name: 'look', description: '', usage: '/look', access: 'member', run: async () => {} };
  const out = new RecordingOutbound();
  const ran: { text: string; waiting: number }[] = [];
  let stopping = false;
  const parts = {
    commands: [make, look],
    scope: () => ({}) as CommandScope,
    out,
    // As the pipeline's command step: noted (once), carried out, done.
    run: async (chat: ChatSession, incoming: IncomingMessage) => {
      await chat.messages.commandBegun(incoming, true);
      const files = await chat.messages.takeFiles(incoming.user.id);
      ran.push({ text: incoming.text, waiting: files.length });
      made.add(messageKey(incoming)!);
      await chat.messages.commandDone(incoming.messageId, incoming.text);
    },
    stopping: () => stopping,
    log: silentLog(),
  };
  return { parts, out, ran, stop: () => (stopping = true) };
}

describe('commands a restart cut short', () => {
  it('are carried out once where their work is not there, with the files they had taken; found where it is, they are not', async () => {
    const made = new Set([messageKey(message('2', '/make b'))!]);
    const { parts, out, ran } = world(made);
    const chat = chatWith({ waitingFiles: { '1': [FILE] } });
    // As the first bridge did: noted, then its files taken (kept with it), then killed before it made its work.
    await chat.messages.commandBegun(message('1', '/make a'), true);
    expect(await chat.messages.takeFiles('1')).toEqual([FILE]);
    await chat.messages.commandBegun(message('2', '/make b'), true);
    expect(chat.record.waitingFiles).toEqual({});
    await replayCommands([chat], parts);
    expect(ran).toEqual([{ text: '/make a', waiting: 1 }]);
    expect(chat.record.commandsCut).toEqual([]);
    expect(out.sent).toEqual([]);
    // A second start has nothing left to do.
    await replayCommands([chat], parts);
    expect(ran).toHaveLength(1);
  });

  it('are counted before each replay: one a crash cut short every time is named to its chat as not done', async () => {
    const { parts, out, ran } = world(new Set());
    const chat = chatWith({});
    await chat.messages.commandBegun(message('1', '/make a'), true);
    const crashing = { ...parts, run: async () => Promise.reject(new Error('killed')) };
    for (let i = 0; i < RESUME_ATTEMPTS; i++) await replayCommands([chat], crashing);
    expect(chat.record.commandsCut?.[0]?.replays).toBe(RESUME_ATTEMPTS);
    await replayCommands([chat], parts);
    expect(ran).toEqual([]);
    expect(out.sent.map((s) => s.text)).toEqual([
      `⚠️ The bridge restarted while it was doing /make a: it was not done: the bridge restarted each of the ${RESUME_ATTEMPTS} times it tried again. Send it again once the bridge is steady.`,
    ]);
    expect(chat.record.commandsCut).toEqual([]);
  });

  it('whose work cannot be found are named to their chat, saying what is known; nothing is carried out again', async () => {
    const { parts, out, ran } = world(new Set(), (_key, args) =>
      args.startsWith('send') ? { kind: 'unknown', said: 'it was handed to #3, which may not have read it.' } : undefined,
    );
    const chat = chatWith({});
    await chat.messages.commandBegun(message('1', '/look'));
    await chat.messages.commandBegun(message('2', '/make send 3 hi'), true);
    await chat.messages.commandBegun(message('3', '/make other'), true);
    await replayCommands([chat], parts);
    expect(ran).toEqual([]);
    expect(out.sent.map((s) => s.text)).toEqual([
      '⚠️ The bridge restarted while it was doing /look: it had begun, and whether it was done is unknown. Check, and send it again if it was not.',
      '⚠️ The bridge restarted while it was doing /make send 3 hi: it was handed to #3, which may not have read it.',
      '⚠️ The bridge restarted while it was doing /make other: it had begun, and whether it was done is unknown. Check, and send it again if it was not.',
    ]);
  });

  it('wait for the next start when a signal comes first', async () => {
    const { parts, ran, stop } = world(new Set());
    const chat = chatWith({});
    await chat.messages.commandBegun(message('1', '/make a'), true);
    stop();
    await replayCommands([chat], parts);
    expect(ran).toEqual([]);
    expect(chat.record.commandsCut).toHaveLength(1);
  });
});
