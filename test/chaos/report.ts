import { RESUME_ATTEMPTS } from '../../src/kernel/policy/resume-attempts.ts';
import type { RecordedCall } from '../support/fake-telegram/call-log.ts';
import type { FakeMessage } from '../support/fake-telegram/message-view.ts';
import type { TelegramWorld } from '../support/telegram-world.ts';

/**
 * The chaos run's accounting: what became of each message and spawn it sent (answered, resumed,
 * named, refused, lost, doubled, out of order), read from what the fake Bot API saw, and the
 * table it prints.
 */

export interface ChaosReport {
  seed: number;
  cycles: number;
  kills: {
    sigkill: number;
    drained: number;
    killedDuringDrain: number;
    /** With workers: those SIGKILLed, and those drained (SIGTERM). */
    workers?: { sigkill: number; drained: number };
  };
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
  runs: {
    spawned: number;
    announced: number;
    interrupted: number;
    cut: number;
    lost: number;
    duplicated: number;
    windowDuplicated: number;
    /** Handed back by a draining worker and taken up by another (the chat told so). */
    moved: number;
    /** Announced twice where the next start found the bridge had stopped during the call (the outbox's `sending` mark): the Bot API cannot tell whether the first arrived. */
    unknownOutcome: number;
  };
  /** From each start that had a turn to resume, to its first `↻ Resuming` on the wire (ms). */
  resumeMs: number[];
  /** The widest gap seen between an answer or announcement reaching Telegram and the kill that made it go twice (ms). */
  windowMs: number;
  /** What each lost or duplicated message or run was, to reproduce it (with the seed). */
  problems: string[];
  /** Each bridge process's log, in order, then each worker's, for a run with problems. */
  logs: string[];
}

/** A kill within this long after an answer reached Telegram may come before the bridge saved it: the one duplicate the Bot API cannot prevent. */
const KILL_WINDOW_MS = 1000;

export interface Sent {
  chatId: number;
  messageId: number;
  /** What it says, for the report; `label` for a spawn. */
  text: string;
  kind: 'turn' | 'spawn';
  at: number;
}

/** A message is settled once answered or named as interrupted; a spawn once announced. */
export function settled(messages: readonly FakeMessage[], item: Sent): boolean {
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

/** A /spawn the restart cut short, named to the chat instead of carried out (only after every replay of it was cut short too). */
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

export async function account(
  report: ChaosReport,
  sent: readonly Sent[],
  world: TelegramWorld,
  kills: readonly number[],
  starts: readonly number[],
): Promise<void> {
  const { telegram } = world;
  const startedAt = turnStarts(await world.cli.invocations(), sent);
  // When each bot message first carried an answer (a send, or the edit of a progress message), or an announcement.
  const answeredAt = firstCarrying(telegram.calls, /^(echo|reply)\b/);
  const announcedAt = firstCarrying(telegram.calls, ANNOUNCEMENT);
  // A kill just after Telegram took the first, before the bridge saved that it was sent, sends it again.
  const killGap = (at: number) => Math.min(...kills.filter((kill) => kill >= at).map((kill) => kill - at));
  const lastStartByChat = new Map<number, number>();
  const logs = [...report.logs, world.bridge.log()];
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
        if (messages.some((m) => new RegExp(`^#\\d+ ${item.text} continues on worker`).test(m.text ?? ''))) report.runs.moved++;
        if (announced.some((m) => (m.text ?? '').startsWith('❌'))) report.runs.interrupted++;
        const gap = killGap(Math.min(...announced.map((m) => announcedAt.get(`${item.chatId}:${m.messageId}`) ?? Infinity)));
        const runId = / · ([\w-]{10})$/.exec(announced[0]!.text ?? '')?.[1];
        if (announced.length > 1 && runId && cutDuringCall(logs, runId)) report.runs.unknownOutcome++;
        else if (announced.length > 1 && gap <= KILL_WINDOW_MS) {
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
        // Each answer: when Telegram first had it (from the message's sending), the bridge that sent it, and the next kill.
        const each = got.map((m) => {
          const when = answeredAt.get(`${item.chatId}:${m.messageId}`);
          if (when === undefined) return `message ${m.messageId} (never seen carrying an answer)`;
          return `message ${m.messageId} at +${when - item.at} ms by bridge ${starts.filter((start) => start <= when).length}, the next kill ${killGap(when)} ms later`;
        });
        report.problems.push(`message "${item.text}" (chat ${item.chatId}): answered ${got.length} times: ${each.join('; ')}`);
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

/**
 * When each message's turn first started in its CLI, by the message's text: the prompt is the
 * message itself, or the message and then the files it came with. Not a prefix alone: `question
 * c4` is the head of `question c46`, and a message that answered a question has no turn of its
 * own, so it would take a later message's start, and every message between seem out of order.
 */
export function turnStarts(invocations: readonly { prompt: string; startedAt: number }[], sent: readonly Sent[]): Map<string, number> {
  const texts = new Set(sent.filter((item) => item.kind === 'turn').map((item) => item.text));
  const startedAt = new Map<string, number>();
  for (const call of invocations) {
    const text = call.prompt.split(FILES_AFTER)[0]!;
    if (texts.has(text) && !startedAt.has(text)) startedAt.set(text, call.startedAt);
  }
  return startedAt;
}

/** Where a prompt's files follow its message (promptWithFiles). */
const FILES_AFTER = /\n\n\[The user sent (?:this file|these \d+ files) with the message/;

/** Whether a start logged that the bridge before it stopped during a call announcing this run (the outbox's `sending` mark). */
function cutDuringCall(logs: readonly string[], runId: string): boolean {
  return logs.some((log) => log.split('\n').some((line) => line.includes(`"run":"${runId}"`) && line.includes('the bridge stopped while announcing it')));
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
    ...(kills.workers
      ? ([
          ['workers: SIGKILL / drained', `${kills.workers.sigkill} / ${kills.workers.drained}`],
          ['runs that went on on another worker (drained or killed)', runs.moved],
        ] as [string, string | number][])
      : []),
    ['runs announced (of which interrupted)', `${runs.announced} (${runs.interrupted})`],
    ['runs cut short by a kill before they were made (named to the chat)', runs.cut],
    ['runs lost', runs.lost],
    ['runs duplicated', runs.duplicated],
    [`runs announced twice by a kill within ${KILL_WINDOW_MS} ms of Telegram's answer`, runs.windowDuplicated],
    ['runs announced twice, the next start logging that a stop cut their call (outcome unknown)', runs.unknownOutcome],
    [
      'widest gap between Telegram taking a message and the kill that made it go twice',
      turns.windowDuplicated + runs.windowDuplicated ? `${report.windowMs} ms` : '-',
    ],
    ['start → resumed, p50 / max', sorted.length ? `${p(50)} ms / ${sorted.at(-1)} ms (${sorted.length} starts)` : 'nothing to resume'],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [...rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`), ...report.problems.map((line) => `✗ ${line}`)].join('\n');
}
