import type { QuotaLimit } from '../../kernel/protocols/events.ts';
import { nextInChain, type FallbackChain } from './chain.ts';
import { limitReason } from './limit-words.ts';
import type { WorkNotes } from '../../kernel/store/chat-store.ts';
import { oneLine, type TurnWatcher } from './work-notes.ts';

/** What stopped the CLI that did the work, and what it was doing then. */
export interface Handover {
  from: string;
  to: string;
  /** Why it stopped, as the chat was told ("claude's usage limit is reached"). */
  reason: string;
  notes: WorkNotes;
  /** The message being answered when it stopped, with what that turn did before it stopped. */
  current?: { prompt: string; files: readonly string[]; inFlight?: string; said?: string };
  /** `to` did the session's work before `from` took over, and is back: `from`'s work is what it missed. */
  returning?: boolean;
  /** `to` is `from`, which could not load its own session: the bridge's notes are all that is left of it. */
  lost?: boolean;
}

/** Work a quota or rate limit stopped, a chat's turn or a run: where it was, and what it did. */
export interface StoppedWork {
  from: string;
  limit: QuotaLimit;
  now: number;
  chain: FallbackChain | undefined;
  /** A CLI that cannot take it now: still limited itself, or unfit for it. */
  cannot: (cli: string) => boolean;
  notes: WorkNotes;
  /** What it was answering when it stopped (a chat's message, a run's task). */
  prompt: string;
  /** What its turn did before the stop. */
  watcher: TurnWatcher;
}

/**
 * Who takes over work a limit stopped, the one way for a chat's session and a run alike: the
 * next CLI of its chain that can, with why (as the chat is told) and the brief that opens its
 * turn. Undefined: none can.
 */
export function takeOver(work: StoppedWork): { to: string; reason: string; brief: string } | undefined {
  const { from, chain, watcher } = work;
  const to = chain ? nextInChain(chain, from, work.cannot) : undefined;
  if (!to) return undefined;
  const reason = limitReason(from, work.limit, work.now);
  const current = {
    prompt: work.prompt,
    files: watcher.files,
    inFlight: watcher.inFlight,
    said: watcher.lastText,
  };
  return { to, reason, brief: briefOf({ from, to, reason, notes: work.notes, current }) };
}

/**
 * The brief that opens the next CLI's turn: whose work it continues and why, the task, the
 * last answers, the files touched and the tool call in flight, all from what the bridge saw.
 * The message to answer follows it.
 */
export function briefOf(handover: Handover): string {
  const { from, to, reason, notes, current } = handover;
  const lines = [
    handover.lost
      ? `[The bridge: you (${to}) could not load this chat's previous session, so this one is new. This is what the bridge saw of the work in it; its context is not available to you.`
      : handover.returning
        ? `[The bridge: you (${to}) are back in this session: ${reason}. Meanwhile ${from} went on with it; this is what the bridge saw of ${from}'s work.`
        : `[The bridge: you (${to}) are taking over a session from ${from}, because ${reason}. This is what the bridge saw of ${from}'s work; ${from}'s own context is not available to you.`,
  ];
  if (notes.task) lines.push('', `The task ${from} was given:`, quote(notes.task));
  if (notes.answers.length) {
    lines.push('', `${from}'s last answers:`);
    for (const { prompt, answer } of notes.answers) lines.push(`- Asked: ${oneLine(prompt)}`, `  Answered:`, quote(answer, '    '));
  }
  const files = [...new Set([...notes.files, ...(current?.files ?? [])])];
  if (files.length) lines.push('', `Files ${from}'s tools touched: ${files.join(', ')}`);
  if (current?.inFlight) lines.push('', `When it stopped, ${from} was running: ${current.inFlight} (it may not have finished: check before relying on it).`);
  if (current?.said) lines.push('', `It had said so far in this turn:`, quote(current.said));
  lines.push('', current ? 'Now answer this message, which it could not:]' : 'The next message follows.]');
  return lines.join('\n');
}

function quote(text: string, indent = '  '): string {
  return text
    .split('\n')
    .map((line) => `${indent}${line}`)
    .join('\n');
}
