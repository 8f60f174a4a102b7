import { RESUME_ATTEMPTS } from '../../src/policy/resume-attempts.ts';
import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import type { FakeMessage } from '../support/fake-telegram/message-view.ts';
import type { RecordedCall } from '../support/fake-telegram/call-log.ts';
import { seeded } from '../support/seeded.ts';
import { startMockModel, type MockModel } from '../support/mock-model/index.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

/**
 * The chaos run: the bridge as a real process, its chats and runs under load through the fake
 * Bot API with faults on, killed at random moments (mid-turn, mid-tool call, while a question
 * waits, mid-download, mid-announcement, during a drain) and started again, cycle after
 * cycle. At the end, every message sent must have been answered once (or, where its turn was
 * cut short twice, named to its chat), and every run announced once.
 */
export interface ChaosOptions {
  cycles: number;
  seed: number;
  /** Chats under load at once. */
  chats?: number;
  /** Messages and spawns sent in each cycle. */
  perCycle?: number;
  /** `claude`: the real binary against the mock model, instead of the fake CLI (shorter, slower turns). */
  cli?: 'fake' | 'claude';
  /** Progress lines, one per cycle. */
  log?: (line: string) => void;
}

export interface ChaosReport {
  seed: number;
  cycles: number;
  kills: { sigkill: number; drained: number; killedDuringDrain: number };
  turns: {
    sent: number;
    answered: number;
    resumed: number;
    told: number;
    refused: number;
    lost: number;
    duplicated: number;
    windowDuplicated: number;
    outOfOrder: number;
  };
  runs: { spawned: number; announced: number; interrupted: number; cut: number; lost: number; duplicated: number; windowDuplicated: number };
  /** From each start that had a turn to resume, to its first `↻ Resuming` on the wire (ms). */
  resumeMs: number[];
  /** The widest gap seen between an answer reaching Telegram and the kill that made it count twice (ms). */
  windowMs: number;
  /** What each lost or duplicated message or run was, to reproduce it (with the seed). */
  problems: string[];
  /** Each bridge process's log, in order, for a run with problems. */
  logs: string[];
}

/**
 * At the end, the bridge has answered all it will once it has called the Bot API for nothing
 * but updates this long: longer than a group's send budget may hold its calls (a window of 60 s).
 */
const QUIET_MS = 75_000;
/** And it has this long at most to get there. */
const SETTLE_MAX_MS = 600_000;

/** A kill within this long after an answer reached Telegram may come before the bridge saved it: the one duplicate the Bot API cannot prevent. */
const KILL_WINDOW_MS = 1000;

interface Sent {
  chatId: number;
  messageId: number;
  /** What it says, for the report; `label` for a spawn. */
  text: string;
  kind: 'turn' | 'spawn';
  at: number;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const random = seeded(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chats = Array.from({ length: options.chats ?? 3 }, (_, i) => -7001 - i);
  const perCycle = options.perCycle ?? 6;
  const real = options.cli === 'claude' ? await realClaude() : undefined;
  const world = await startTelegramWorld({
    BRIDGE_DRAIN_SECONDS: '2',
    SUBAGENTS_MAX_CONCURRENT: '2',
    ...(real?.env ?? {}),
  });
  const report: ChaosReport = {
    seed: options.seed,
    cycles: options.cycles,
    kills: { sigkill: 0, drained: 0, killedDuringDrain: 0 },
    turns: { sent: 0, answered: 0, resumed: 0, told: 0, refused: 0, lost: 0, duplicated: 0, windowDuplicated: 0, outOfOrder: 0 },
    runs: { spawned: 0, announced: 0, interrupted: 0, cut: 0, lost: 0, duplicated: 0, windowDuplicated: 0 },
    resumeMs: [],
    windowMs: 0,
    problems: [],
    logs: [],
  };
  const sent: Sent[] = [];
  const kills: number[] = [];
  const starts: number[] = [];
  const { telegram } = world;
  // Whoever asks a question gets the first option, as a person would, a moment later.
  const pressed = new Set<string>();
  const answering = setInterval(() => {
    for (const chatId of chats) {
      for (const message of telegram.botMessages(chatId)) {
        const key = `${chatId}:${message.messageId}`;
        const button = message.buttons[0] as { callback_data?: string } | undefined;
        if (pressed.has(key) || !(message.text ?? '').startsWith('❓') || !button?.callback_data) continue;
        pressed.add(key);
        telegram.pressButton({ chatId, messageId: message.messageId, data: button.callback_data, userId: OWNER });
      }
    }
  }, 250);
  const say = (chatId: number, text: string) => telegram.sendText({ chatId, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
  let n = 0;
  const send = (chatId: number) => {
    const id = `c${n++}`;
    const kind = pick(real ? ['plain', 'plain', 'spawn'] : ['tools', 'tools', 'sleep', 'file', 'question', 'spawn']);
    const at = Date.now();
    if (kind === 'spawn') {
      const task = real ? `reply ${id}` : `tools:2 pace:${200 + Math.floor(random() * 500)} ${id}`;
      const message = say(chatId, `/spawn --label ${id} "${task}"`);
      sent.push({ chatId, messageId: message.message_id, text: id, kind: 'spawn', at });
      return;
    }
    const text = real
      ? `reply ${id}`
      : kind === 'tools'
        ? `tools:${1 + Math.floor(random() * 3)} pace:${200 + Math.floor(random() * 600)} ${id}`
        : kind === 'sleep'
          ? `sleep:${(0.3 + random() * 2).toFixed(1)} ${id}`
          : kind === 'question'
            ? `question ${id}`
            : `${id} a file`;
    const message =
      kind === 'file'
        ? telegram.sendFile({
            chatId,
            userId: OWNER,
            chatType: 'group',
            firstName: 'Ada',
            kind: 'document',
            bytes: Buffer.alloc(64 * 1024, 1),
            fileName: `${id}.log`,
            caption: text,
          })
        : say(chatId, text);
    sent.push({ chatId, messageId: message.message_id, text, kind: 'turn', at });
  };
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  try {
    // Each message its own turn, in order: what was answered can be told apart.
    for (const chatId of chats) say(chatId, '/busy queue');
    await telegram.waitFor(() => chats.every((chatId) => telegram.botMessages(chatId).some((m) => /^📨 Busy mode: queue/.test(m.text ?? ''))), 30_000);
    starts.push(Date.now());
    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      injectFaults(world, random);
      for (let i = 0; i < perCycle; i++) {
        // Not into a chat whose agent waits on a question: the message would answer it, and be hard to follow.
        const free = chats.filter((chatId) => !telegram.botMessages(chatId).some((m) => (m.text ?? '').startsWith('❓') && m.buttons.length));
        send(pick(free.length ? free : chats));
        await delay(random() * 300);
      }
      await delay(random() * (real ? 3000 : 2500));
      const way = random();
      kills.push(Date.now());
      if (way < 0.7) {
        report.kills.sigkill++;
        world.bridge.kill('SIGKILL');
      } else {
        report.kills.drained++;
        world.bridge.kill('SIGTERM');
        if (way < 0.85) {
          await delay(300 + random() * 1000);
          report.kills.killedDuringDrain++;
          kills.push(Date.now());
          world.bridge.kill('SIGKILL');
        }
      }
      await world.bridge.exited;
      // Messages that reach Telegram while the bridge is down wait there for it.
      if (random() < 0.5) send(pick(chats));
      starts.push(Date.now());
      report.logs.push(world.bridge.log());
      await world.restart('SIGKILL');
      options.log?.(`cycle ${cycle}/${options.cycles}: ${sent.length} sent`);
    }
    telegram.clearFaults();
    // A backlog drains at a group's send budget (20 messages a minute): the bridge is done once it is quiet.
    const quietSince = () => Math.max(0, ...telegram.calls.filter((call) => call.method !== 'getUpdates').map((call) => call.time));
    const settleBy = Date.now() + SETTLE_MAX_MS;
    while (!sent.every((item) => settled(telegram.botMessages(item.chatId), item)) && Date.now() < settleBy && Date.now() - quietSince() < QUIET_MS) {
      await delay(500);
    }
    await delay(1500); // a duplicate would be out by now
    await account(report, sent, world, kills, starts);
    report.logs.push(world.bridge.log());
  } finally {
    clearInterval(answering);
    await world.stop();
    await real?.stop();
  }
  return report;
}

/** A message is settled once answered or named as interrupted; a spawn once announced. */
function settled(messages: readonly FakeMessage[], item: Sent): boolean {
  return item.kind === 'spawn'
    ? announcements(messages, item).length > 0 || cutShort(messages, item)
    : answers(messages, item).length > 0 || tookAsAnswer(messages, item) || told(messages, item) || queueFull(messages, item);
}

/** The answers to a message: the bot's replies to it that are an agent's answer. */
function answers(messages: readonly FakeMessage[], item: Sent): FakeMessage[] {
  return messages.filter((m) => m.replyToMessageId === item.messageId && /^(echo|reply)\b/.test(m.text ?? ''));
}

/**
 * A message that answered an agent's open question: the question shows it taken, or, when the
 * turn it went into was cut short first, that turn's resume lists it (and the fake CLI's answer
 * echoes the resume, its list shown as bullets, or as sent where the formatted text was refused).
 */
function tookAsAnswer(messages: readonly FakeMessage[], item: Sent): boolean {
  return messages.some(
    (m) =>
      ((m.text ?? '').startsWith('❓') && (m.text ?? '').includes(`✅ ${item.text} (`)) ||
      ((m.text ?? '').startsWith('echo:') && [`• ${item.text}\n`, `- ${item.text}\n`].some((line) => (m.text ?? '').includes(line))),
  );
}

/** Refused in reply, because the chat's queue was full (maxQueuedMessages): the person is told to send it again. */
function queueFull(messages: readonly FakeMessage[], item: Sent): boolean {
  return messages.some((m) => m.replyToMessageId === item.messageId && /^⛔ \d+ messages are already waiting for the agent/.test(m.text ?? ''));
}

function told(messages: readonly FakeMessage[], item: Sent): boolean {
  const head = item.text.slice(0, 40);
  return messages.some((m) => (m.text ?? '').startsWith('⚠️ The bridge restarted before it finished') && (m.text ?? '').includes(head));
}

/** A /spawn the restart cut short before it made its run: named to the chat, not run again. */
function cutShort(messages: readonly FakeMessage[], item: Sent): boolean {
  return messages.some((m) => m.replyToMessageId === item.messageId && (m.text ?? '').startsWith('⚠️ The bridge restarted while it was doing /spawn'));
}

/** A run's announcement: its outcome, its number. */
const ANNOUNCEMENT = /^[✅❌⏹⌛] #\d+ /;

/** When each bot message (`chat:id`) first carried text matching `pattern`: as sent, or by an edit. */
function firstCarrying(calls: readonly RecordedCall[], pattern: RegExp): Map<string, number> {
  const at = new Map<string, number>();
  for (const call of calls) {
    if (!call.ok || !/^(sendMessage|editMessageText)$/.test(call.method) || !pattern.test(textOf(call.params))) continue;
    const result = call.result as { message_id?: number } | undefined;
    const id = call.method === 'sendMessage' ? result?.message_id : Number(call.params.message_id);
    const key = `${String(call.params.chat_id)}:${id}`;
    if (!at.has(key)) at.set(key, call.time);
  }
  return at;
}

function announcements(messages: readonly FakeMessage[], item: Sent): FakeMessage[] {
  return messages.filter((m) => new RegExp(`^[✅❌⏹⌛] #\\d+ ${item.text} `).test(m.text ?? ''));
}

async function account(report: ChaosReport, sent: readonly Sent[], world: TelegramWorld, kills: readonly number[], starts: readonly number[]): Promise<void> {
  const { telegram } = world;
  // When each message's turn first started in its CLI (its prompt starts with the message).
  const startedAt = new Map<string, number>();
  for (const call of await world.cli.invocations()) {
    const item = sent.find((s) => s.kind === 'turn' && call.prompt.startsWith(s.text));
    if (item && !startedAt.has(item.text)) startedAt.set(item.text, call.startedAt);
  }
  // When each bot message first carried an answer (a send, or the edit of a progress message), or an announcement.
  const answeredAt = firstCarrying(telegram.calls, /^(echo|reply)\b/);
  const announcedAt = firstCarrying(telegram.calls, ANNOUNCEMENT);
  // A kill just after Telegram took the first, before the bridge saved that it was sent, sends it again.
  const killGap = (at: number) => Math.min(...kills.filter((kill) => kill >= at).map((kill) => kill - at));
  const lastStartByChat = new Map<number, number>();
  for (const item of sent) {
    const messages = telegram.botMessages(item.chatId);
    if (item.kind === 'spawn') {
      report.runs.spawned++;
      const announced = announcements(messages, item);
      if (!announced.length && cutShort(messages, item)) report.runs.cut++;
      else if (!announced.length) {
        report.runs.lost++;
        report.problems.push(`run ${item.text} (chat ${item.chatId}): never announced`);
      } else {
        report.runs.announced++;
        if (announced.some((m) => (m.text ?? '').startsWith('❌'))) report.runs.interrupted++;
        const gap = killGap(Math.min(...announced.map((m) => announcedAt.get(`${item.chatId}:${m.messageId}`) ?? Infinity)));
        if (announced.length > 1 && gap <= KILL_WINDOW_MS) {
          report.runs.windowDuplicated++;
          report.windowMs = Math.max(report.windowMs, gap);
        } else if (announced.length > 1) {
          report.runs.duplicated++;
          report.problems.push(`run ${item.text} (chat ${item.chatId}): announced ${announced.length} times: ${JSON.stringify(announced.map((m) => m.text))}`);
        }
      }
      continue;
    }
    report.turns.sent++;
    const got = answers(messages, item);
    if (messages.some((m) => m.replyToMessageId === item.messageId && (m.text ?? '').startsWith('↻ Resuming'))) report.turns.resumed++;
    if (got.length || tookAsAnswer(messages, item)) report.turns.answered++;
    else if (told(messages, item)) report.turns.told++;
    else if (queueFull(messages, item)) report.turns.refused++;
    else {
      report.turns.lost++;
      const replies = messages.filter((m) => m.replyToMessageId === item.messageId).map((m) => (m.text ?? '').split('\n')[0]!.slice(0, 60));
      const delivered = telegram.calls
        .filter(
          (call) =>
            call.method === 'getUpdates' && updatesOf(call.result).some((u) => u.message?.message_id === item.messageId && u.message.chat?.id === item.chatId),
        )
        .map((call) => `${call.time - item.at} ms`);
      const near = kills.map((kill) => kill - item.at).filter((gap) => gap > -5000 && gap < 20_000);
      report.problems.push(
        `message "${item.text}" (chat ${item.chatId}, message ${item.messageId}): neither answered nor named; replies: ${JSON.stringify(replies)}; given to the bridge ${delivered.join(', ') || 'never'} after it was sent; kills at ${near.join(', ')} ms`,
      );
    }
    const firstAnswer = Math.min(...got.map((m) => answeredAt.get(`${item.chatId}:${m.messageId}`) ?? Infinity));
    // Ran in order within a chat: its turn started after those of the messages sent before it
    // (when answers reach Telegram depends on each one's retries, so that is not the measure).
    const first = startedAt.get(item.text);
    if (got.length > 1) {
      const gap = killGap(firstAnswer);
      if (gap <= KILL_WINDOW_MS) {
        report.turns.windowDuplicated++;
        report.windowMs = Math.max(report.windowMs, gap);
      } else {
        report.turns.duplicated++;
        report.problems.push(`message "${item.text}" (chat ${item.chatId}): answered ${got.length} times`);
      }
    }
    if (first !== undefined) {
      if (first < (lastStartByChat.get(item.chatId) ?? 0)) {
        report.turns.outOfOrder++;
        report.problems.push(`message "${item.text}" (chat ${item.chatId}): its turn started before that of a message sent earlier`);
      }
      lastStartByChat.set(item.chatId, Math.max(first, lastStartByChat.get(item.chatId) ?? 0));
    }
  }
  // From each start to the first resume notice after it, before the next kill.
  const resumes = telegram.calls.filter((call) => call.method === 'sendMessage' && textOf(call.params).startsWith('↻ Resuming')).map((c) => c.time);
  for (const [i, start] of starts.entries()) {
    const next = starts[i + 1] ?? Infinity;
    const first = resumes.find((time) => time >= start && time < next);
    if (first !== undefined) report.resumeMs.push(first - start);
  }
}

/** Each cycle's Bot API faults: rate limits, server errors and dropped connections, on sends, edits and downloads. */
function injectFaults(world: TelegramWorld, random: () => number): void {
  const { telegram } = world;
  if (random() < 0.5) telegram.failNext('sendMessage', { code: 429, retryAfter: 1 });
  if (random() < 0.5) telegram.failNext('editMessageText', { code: 502, description: 'Bad Gateway' });
  if (random() < 0.4) telegram.failNext('sendMessage', { networkDrop: true });
  if (random() < 0.3) telegram.failNext('download', { networkDrop: true });
}

/** The real claude against the mock model, answering `reply <id>` with the id after a short shell call. */
async function realClaude(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const mock: MockModel = await startMockModel();
  const cliEnv: CliEnv = await prepareCliEnv('claude', mock.url);
  mock.reset((request) => {
    const id = /\bc\d+\b/.exec(request.lastUserText)?.[0] ?? /\bc\d+\b/.exec(JSON.stringify(request.messages))?.[0] ?? 'c?';
    if (!request.toolResults.length) return { toolCalls: [{ name: 'Bash', input: { command: 'sleep 3; echo worked', description: 'work' } }] };
    return { text: `reply ${id}` };
  });
  return {
    env: {
      ...cliEnv.env,
      BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
      BRIDGE_DEFAULT_CLI: 'claude',
      BRIDGE_WORKDIR: cliEnv.workdir,
    },
    async stop() {
      await mock.close();
      await cliEnv.cleanup();
    },
  };
}

/** The updates a getUpdates call gave. */
function updatesOf(result: unknown): { message?: { message_id?: number; chat?: { id?: number } } }[] {
  return Array.isArray(result) ? (result as { message?: { message_id?: number; chat?: { id?: number } } }[]) : [];
}

/** The text a Bot API call sent, if any. */
function textOf(params: Readonly<Record<string, unknown>>): string {
  return typeof params.text === 'string' ? params.text : '';
}

/** The report as a table, with what went wrong under it. */
export function formatReport(report: ChaosReport): string {
  const { turns, runs, kills } = report;
  const sorted = [...report.resumeMs].sort((a, b) => a - b);
  const p = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * q) / 100) - 1)]! : 0);
  const rows: [string, string | number][] = [
    ['seed', report.seed],
    ['cycles', report.cycles],
    ['kills: SIGKILL / drained / killed during the drain', `${kills.sigkill} / ${kills.drained} / ${kills.killedDuringDrain}`],
    ['turns started', turns.sent],
    ['turns completed (answered)', turns.answered],
    ['turns resumed', turns.resumed],
    [`turns named as interrupted (cut short ${RESUME_ATTEMPTS + 1} times)`, turns.told],
    ['turns refused, the chat told its queue was full (a backlog the kills outpaced)', turns.refused],
    ['turns lost', turns.lost],
    ['turns duplicated', turns.duplicated],
    [`turns duplicated by a kill within ${KILL_WINDOW_MS} ms of Telegram's answer`, turns.windowDuplicated],
    ['answers out of order', turns.outOfOrder],
    ['runs started', runs.spawned],
    ['runs announced (of which interrupted)', `${runs.announced} (${runs.interrupted})`],
    ['runs cut short by a kill before they were made (named to the chat)', runs.cut],
    ['runs lost', runs.lost],
    ['runs duplicated', runs.duplicated],
    [`runs announced twice by a kill within ${KILL_WINDOW_MS} ms of Telegram's answer`, runs.windowDuplicated],
    ['widest gap between Telegram taking a message and the kill that made it go twice', report.windowMs ? `${report.windowMs} ms` : '-'],
    ['start → resumed, p50 / max', sorted.length ? `${p(50)} ms / ${sorted.at(-1)} ms (${sorted.length} starts)` : 'nothing to resume'],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [...rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`), ...report.problems.map((line) => `✗ ${line}`)].join('\n');
}
