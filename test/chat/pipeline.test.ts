import { describe, expect, it } from 'vitest';
import { pipelineOf, step, type Step } from '../../src/chat/pipeline/step.ts';
import { messageSteps, type MessageContext, type PipelineParts } from '../../src/chat/pipeline/index.ts';
import { allow } from '../../src/chat/pipeline/allow.ts';
import { dedupe } from '../../src/chat/pipeline/dedupe.ts';
import { files } from '../../src/chat/pipeline/files.ts';
import { budget } from '../../src/chat/pipeline/budget.ts';
import { drain } from '../../src/chat/pipeline/drain.ts';
import { queue } from '../../src/chat/pipeline/queue.ts';
import { command } from '../../src/chat/pipeline/command.ts';
import { answer } from '../../src/chat/pipeline/answer.ts';
import { groupTurns } from '../../src/chat/pipeline/group-turns.ts';
import { PeopleSeen } from '../../src/work/access/people-seen.ts';
import type { Standing } from '../../src/work/access/chat-people.ts';
import type { Command, CommandScope } from '../../src/chat/dispatch/command.ts';
import { Allowlist } from '../../src/chat/people/allowlist.ts';
import { RefusalThrottle } from '../../src/chat/people/refusals.ts';
import { parseCommandLine } from '../../src/chat/dispatch/command-line.ts';
import type { ChatSession } from '../../src/chat/session/chat-session.ts';
import type { IncomingMessage } from '../../src/kernel/ports/chat.ts';
import type { PendingMessage } from '../../src/kernel/store/chat-store.ts';
import type { RichText } from '../../src/kernel/rich/index.ts';
import { silentLog } from '../support/silent-log.ts';
import type { DrainReason } from '../../src/chat/turns/leaving.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat as chatRef } from '../support/chats.ts';

type Ctx = { log: string[] };

/** A step that notes when it runs, before and after what follows it. */
const noting = (name: string): Step<Ctx> =>
  step(name, async (ctx, next) => {
    ctx.log.push(`${name} in`);
    await next();
    ctx.log.push(`${name} out`);
  });

describe('composing steps', () => {
  it('runs them in order, each around the rest', async () => {
    const ctx = { log: [] };
    await pipelineOf([noting('a'), noting('b'), noting('c')])(ctx);
    expect(ctx.log).toEqual(['a in', 'b in', 'c in', 'c out', 'b out', 'a out']);
  });

  it('a step that does not hand on ends the message: no later step runs', async () => {
    const ctx = { log: [] };
    const ends = step<Ctx>('ends', async (c) => void c.log.push('ends'));
    await pipelineOf([noting('a'), ends, noting('never')])(ctx);
    expect(ctx.log).toEqual(['a in', 'ends', 'a out']);
  });

  it('an error in a step ends the message and reaches the caller as it was thrown', async () => {
    const ctx = { log: [] };
    const failure = new Error('the disk is full');
    const fails = step<Ctx>('fails', async () => {
      throw failure;
    });
    await expect(pipelineOf([noting('a'), fails, noting('never')])(ctx)).rejects.toBe(failure);
    expect(ctx.log).toEqual(['a in']);
  });

  it('a step that hands on twice is a mistake, and says which step made it', async () => {
    const twice = step<Ctx>('twice', async (_, next) => {
      await next();
      await next();
    });
    const ctx = { log: [] };
    await expect(pipelineOf([twice, noting('b')])(ctx)).rejects.toThrow('the twice step handed the message on twice');
    expect(ctx.log).toEqual(['b in', 'b out']);
  });

  it('no steps: nothing happens', async () => {
    await expect(pipelineOf<Ctx>([])({ log: [] })).resolves.toBeUndefined();
  });
});

describe("a message's steps", () => {
  it('are allow, dedupe, group-turns, files, command, answer, blank, then the prompt steps: budget, drain, steer, queue', () => {
    const parts = { commands: [], settings: { maxQueuedMessages: 1 } } as unknown as PipelineParts;
    const steps = messageSteps(parts);
    expect(steps.message.map((s) => s.name)).toEqual([
      'allow',
      'dedupe',
      'group-turns',
      'files',
      'command',
      'answer',
      'blank',
      'budget',
      'drain',
      'steer',
      'queue',
    ]);
    expect(steps.prompt.map((s) => s.name)).toEqual(['budget', 'drain', 'steer', 'queue']);
  });
});

// Each step alone, over a chat session of its own making.
/** What admins said of people, keyed `<whole chat> <person>`. */
function peopleOf(said: Map<string, Standing>) {
  return {
    standing: (chat: { transport: string; chat: string }, person: string) => said.get(`${chat.transport}:${chat.chat} ${person}`),
    allowedAnywhere: (person: string) => [...said].some(([key, s]) => key.endsWith(` ${person}`) && s.is === 'allowed'),
  };
}

function allowParts(said = new Map<string, Standing>()) {
  const people = peopleOf(said);
  return {
    allowlist: new Allowlist({ allowedUsers: ['telegram:1'], owners: ['telegram:9'], admins: [], bareNumbers: 'telegram', people }),
    people,
    seen: new PeopleSeen(),
    refusals: new RefusalThrottle(),
    log: silentLog(),
  };
}

const ADA = { id: '1', name: 'Ada' };
const EVE = { id: '666', name: 'Eve' };

function fakeChat(overrides: Partial<Record<keyof ChatSession, unknown>> = {}): ChatSession & { pending: PendingMessage[]; titles: (string | undefined)[] } {
  const pending: PendingMessage[] = [];
  const titles: (string | undefined)[] = [];
  return {
    address: chatRef(-5),
    record: { workdir: '/work' },
    pending,
    titles,
    remember: async (title?: string) => void titles.push(title),
    messages: { hasTaken: () => false, addPending: async (message: PendingMessage) => void pending.push(message) },
    agent: { agentCommands: [] },
    ...overrides,
  } as unknown as ChatSession & { pending: PendingMessage[]; titles: (string | undefined)[] };
}

function contextOf(message: Partial<IncomingMessage> & { text: string }, chat = fakeChat(), out = new RecordingOutbound()): MessageContext {
  const full = { address: chatRef(-5), user: ADA, messageId: '7', ...message };
  return {
    message: full,
    command: parseCommandLine(full.text),
    chat,
    reply: (text: RichText, options = {}) => out.send(full.address, text, { replyTo: full.messageId, ...options }),
  };
}

/** Runs one step alone: whether it handed the message on. */
async function handsOn(s: Step<MessageContext>, ctx: MessageContext): Promise<boolean> {
  let handed = false;
  await s.run(ctx, async () => void (handed = true));
  return handed;
}

describe('each step alone', () => {
  it('allow: people of the allowlist go on; a stranger is refused once in a while, and goes no further', async () => {
    const out = new RecordingOutbound();
    const step = allow({ ...allowParts(), out });
    expect(await handsOn(step, contextOf({ text: 'hi' }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi', user: EVE }))).toBe(false);
    expect(await handsOn(step, contextOf({ text: 'again', user: EVE }))).toBe(false);
    await new Promise((resolve) => setImmediate(resolve)); // the refusal is not awaited
    expect(out.sent.map((s) => s.text)).toEqual([
      expect.stringMatching(
        /^⛔ Sorry, you are not allowed to use this bot\. Your user id is 666; the owner can add it to BRIDGE_ALLOWED_USERS, or an admin can \/allow you in this chat\.$/,
      ),
    ]);
  });

  it("allow: what a chat's admins said wins over the list there, and only there; everyone's name is noted, strangers' too", async () => {
    const out = new RecordingOutbound();
    const said = new Map<string, Standing>([
      ['telegram:-5 telegram:1', { is: 'denied', by: 'telegram:2', byName: 'Bob', at: 0 }],
      ['telegram:-5 telegram:666', { is: 'allowed', by: 'telegram:2', at: 0 }],
    ]);
    const parts = allowParts(said);
    const step = allow({ ...parts, out });
    expect(await handsOn(step, contextOf({ text: 'hi' }))).toBe(false);
    expect(await handsOn(step, contextOf({ text: 'hi', user: EVE }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi', address: chatRef(-9, 4) }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi', user: EVE, address: chatRef(-9) }))).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.sent[0]!.text).toBe('⛔ An admin (Bob) denied you in this chat with /deny; ask one of its admins to /allow you again.');
    expect(parts.seen.named(chatRef(-5), 'eve')).toEqual([{ person: 'telegram:666', name: 'Eve' }]);
  });

  it('group-turns: where only the named start turns, words from anyone else in a group stop here, told once; commands and private chats go on', async () => {
    const out = new RecordingOutbound();
    const said = new Map<string, Standing>([['telegram:-5 telegram:777', { is: 'allowed', by: 'telegram:2', at: 0 }]]);
    const allowlist = new Allowlist({
      allowedUsers: ['telegram:1', 'telegram:666', 'telegram:777'],
      owners: ['telegram:1'],
      admins: ['telegram:2'],
      bareNumbers: 'telegram',
      people: peopleOf(said),
      groupTurns: 'allowed',
    });
    const step = groupTurns({ allowlist, turnRefusals: new RefusalThrottle(), out, log: silentLog() });
    expect(await handsOn(step, contextOf({ text: 'hi', user: EVE }))).toBe(false);
    expect(await handsOn(step, contextOf({ text: 'again', user: EVE }))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/status', user: EVE }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi', user: EVE, private: true }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi', user: { id: '777' } }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi', user: { id: '2' } }))).toBe(true);
    expect(await handsOn(step, contextOf({ text: 'hi' }))).toBe(true);
    const everyone = groupTurns({
      allowlist: new Allowlist({ allowedUsers: ['telegram:666'], owners: ['telegram:666'], admins: [], bareNumbers: 'telegram' }),
      turnRefusals: new RefusalThrottle(),
      out,
      log: silentLog(),
    });
    expect(await handsOn(everyone, contextOf({ text: 'hi', user: EVE }))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.sent.map((s) => s.text)).toEqual([
      expect.stringMatching(/^⛔ In this group only the people an admin named with \/allow start the agent's work \(BRIDGE_GROUP_TURNS=allowed\)/),
    ]);
  });

  it('dedupe: a message the chat has taken ends here; a new one is remembered with its chat title, and goes on', async () => {
    const taken = fakeChat({ messages: { hasTaken: (id: string) => id === '7' } });
    expect(await handsOn(dedupe(), contextOf({ text: 'hi', chatTitle: 'Ops' }, taken))).toBe(false);
    expect(taken.titles).toEqual([]);
    const fresh = fakeChat();
    expect(await handsOn(dedupe(), contextOf({ text: 'hi', chatTitle: 'Ops' }, fresh))).toBe(true);
    expect(fresh.titles).toEqual(['Ops']);
  });

  it('files: files are received first; alone or with words they end here, captioned with a command they wait for it', async () => {
    const received: IncomingMessage[] = [];
    const step = files({ attachments: { receive: async (_chat, message) => void received.push(message) } });
    const attachments = [{ kind: 'document' as const, id: 'F' }];
    expect(await handsOn(step, contextOf({ text: 'look at this', attachments }))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/spawn "sum it up"', attachments }))).toBe(true);
    expect(received.map((m) => m.text)).toEqual(['look at this', '']);
    expect(await handsOn(step, contextOf({ text: 'no files' }))).toBe(true);
  });

  it('budget: a chat past its budget is told why and starts nothing', async () => {
    const out = new RecordingOutbound();
    const spent = budget({ budget: { refusal: (key) => (key === 'telegram:-5' ? 'The daily budget is spent.' : undefined) } });
    expect(await handsOn(spent, contextOf({ text: 'go' }, fakeChat(), out))).toBe(false);
    expect(out.sent.map((s) => s.text)).toEqual(['The daily budget is spent.']);
    expect(await handsOn(budget({ budget: undefined }), contextOf({ text: 'go' }))).toBe(true);
  });

  it('drain: during a restart (or while leaving) the message is kept with its files to run after it, and its person told which', async () => {
    const out = new RecordingOutbound();
    const chat = fakeChat();
    const waiting = [{ path: '/work/.bridge/inbox/a.txt', kind: 'document' as const, bytes: 3 }];
    let draining: DrainReason | undefined;
    const step = drain({ draining: () => draining, attachments: { take: async () => waiting }, out, log: silentLog() });
    expect(await handsOn(step, contextOf({ text: 'later' }, chat, out))).toBe(true);
    draining = 'restart';
    expect(await handsOn(step, contextOf({ text: 'later' }, chat, out))).toBe(false);
    expect(chat.pending).toEqual([expect.objectContaining({ by: '1', messageId: '7', text: expect.stringMatching(/^later\n\n\[The user sent this file/) })]);
    draining = 'stop';
    expect(await handsOn(step, contextOf({ text: 'later' }, fakeChat(), out))).toBe(false);
    expect(out.sent.map((s) => s.text)).toEqual([
      '🔄 The bridge is restarting: your message is kept, and runs as soon as it is back.',
      '⏸ The bridge is stopping: your message is kept, and runs when the bridge next starts.',
    ]);
  });

  it("command: an unknown one and an owner's one used by another are answered; a known one runs, at most once, and ends the message", async () => {
    const out = new RecordingOutbound();
    const ran: string[] = [];
    const noted: string[] = [];
    const chat = fakeChat({
      messages: {
        commandBegun: async ({ text }: { text: string }) => void noted.push(`begun ${text}`),
        commandDone: async (_id: string, text: string) => void noted.push(`done ${text}`),
      },
    });
    const commands: Command[] = [
      { name: 'hello', description: '', usage: '/hello', access: 'member', run: async ({ args }) => void ran.push(`hello ${args}`) },
      { name: 'trust', description: '', usage: '/trust', access: (args) => (args ? 'owner' : 'member'), run: async () => void ran.push('trust') },
      { name: 'mode', description: '', usage: '/mode', access: 'admin', run: async () => void ran.push('mode') },
    ];
    const step = command({
      commands,
      scope: () => ({}) as CommandScope,
      allowlist: { roleOf: (_chat, user) => (user.id === '1' ? 'owner' : user.id === '2' ? 'admin' : 'member'), mayStartTurns: () => true },
      settings: { commandTimeoutSeconds: 5, fileTransferTimeoutSeconds: 5 },
      log: silentLog(),
    });
    expect(await handsOn(step, contextOf({ text: 'words' }, chat, out))).toBe(true);
    expect(await handsOn(step, contextOf({ text: '/frobnicate' }, chat, out))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/trust /srv', user: EVE }, chat, out))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/hello  world ' }, chat, out))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/mode', user: EVE }, chat, out))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/trust /srv', user: { id: '2' } }, chat, out))).toBe(false);
    expect(await handsOn(step, contextOf({ text: '/mode', user: { id: '2' } }, chat, out))).toBe(false);
    expect(out.sent.map((s) => s.text)).toEqual([
      'Unknown command /frobnicate. Try /help.',
      '⛔ /trust /srv needs an owner (BRIDGE_OWNERS, by default the first id in BRIDGE_ALLOWED_USERS); you are a member (/whoami says why).',
      '⛔ /mode needs an admin (BRIDGE_ADMINS) or an owner; you are a member (/whoami says why).',
      '⛔ /trust /srv needs an owner (BRIDGE_OWNERS, by default the first id in BRIDGE_ALLOWED_USERS); you are an admin (/whoami says why).',
    ]);
    expect(ran).toEqual(['hello world', 'mode']);
    expect(noted).toEqual(['begun /hello  world ', 'done /hello  world ', 'begun /mode', 'done /mode']);
  });

  it('command: a command that starts work is refused to someone who may not start turns here; what only looks is not', async () => {
    const out = new RecordingOutbound();
    const ran: string[] = [];
    const chat = fakeChat({ messages: { commandBegun: async () => {}, commandDone: async () => {} } });
    const commands: Command[] = [
      { name: 'go', description: '', usage: '/go', access: 'member', startsWork: true, run: async () => void ran.push('go') },
      {
        name: 'runs',
        description: '',
        usage: '/runs',
        access: 'member',
        startsWork: (args) => args.startsWith('send'),
        run: async ({ args }) => void ran.push(`runs ${args}`),
      },
    ];
    const step = command({
      commands,
      scope: () => ({}) as CommandScope,
      allowlist: { roleOf: () => 'member', mayStartTurns: (_chat, user, inGroup) => !inGroup || user.id === '1' },
      settings: { commandTimeoutSeconds: 5, fileTransferTimeoutSeconds: 5 },
      log: silentLog(),
    });
    for (const text of ['/go', '/runs list', '/runs send 1 hi']) await handsOn(step, contextOf({ text, user: EVE }, chat, out));
    await handsOn(step, contextOf({ text: '/go', user: EVE, private: true }, chat, out));
    await handsOn(step, contextOf({ text: '/go' }, chat, out));
    expect(ran).toEqual(['runs list', 'go', 'go']);
    expect(out.sent).toHaveLength(2);
  });

  it("answer: a message the agent's question takes is its answer, noted in the running turn; any other goes on", async () => {
    const steered: string[] = [];
    const chat = fakeChat({ current: { id: 'T1', by: '1' }, messages: { noteSteered: async (_turn: string, text: string) => void steered.push(text) } });
    const step = answer({ questions: { take: (message, startedBy) => message.text === 'yes' && startedBy === '1' } });
    expect(await handsOn(step, contextOf({ text: 'yes' }, chat))).toBe(false);
    expect(await handsOn(step, contextOf({ text: 'something else' }, chat))).toBe(true);
    expect(steered).toEqual(['yes']);
    expect(await handsOn(answer({ questions: undefined }), contextOf({ text: 'yes' }, chat))).toBe(true);
  });

  it('queue: past the limit the message is refused; below it a turn starts with the files that waited; a drain begun meanwhile keeps it', async () => {
    const out = new RecordingOutbound();
    const started: string[] = [];
    let draining: DrainReason | undefined;
    const parts = {
      limit: 2,
      draining: () => draining,
      attachments: { take: async () => [{ path: '/work/a.txt', kind: 'document' as const, bytes: 3 }] },
      startTurn: async (_chat: ChatSession, message: { text: string }) => void started.push(message.text),
      out,
      log: silentLog(),
    };
    const full = fakeChat({ busy: true, queued: 2 });
    await queue(parts).run(contextOf({ text: 'one more' }, full, out), async () => {});
    expect(out.sent.map((s) => s.text)).toEqual([
      '⛔ 2 messages are already waiting for the agent, so this one was not queued. Send it again once the current turn ends, or /stop.',
    ]);
    await queue(parts).run(contextOf({ text: 'go' }, fakeChat({ busy: true, queued: 1 }), out), async () => {});
    expect(started).toEqual([expect.stringMatching(/^go\n\n\[The user sent this file with the message/)]);
    const kept = fakeChat({ busy: false, queued: 0 });
    parts.attachments.take = async () => {
      draining = 'restart'; // the restart began while the files were taken
      return [];
    };
    await queue(parts).run(contextOf({ text: 'late' }, kept, out), async () => {});
    expect(started).toHaveLength(1);
    expect(kept.pending.map((p) => p.text)).toEqual(['late']);
  });
});
