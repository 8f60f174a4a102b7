import { nextInChain, type FallbackChain } from './chain.ts';
import type { QuotaLimit } from '../../kernel/protocols/events.ts';
import { briefOf } from './brief.ts';
import { limitReason } from './limit-words.ts';
import type { TurnWatcher, WorkNotes } from './work-notes.ts';

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
