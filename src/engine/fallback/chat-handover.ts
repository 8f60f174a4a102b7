import { briefOf, takeOver } from './brief.ts';
import { resetTime } from './limit-words.ts';
import { freshNotes, type TurnWatcher } from './work-notes.ts';
import type { SessionHandover } from '../session/session-config.ts';
import type { FallbackChain } from './chain.ts';
import type { ChatRecord } from '../../kernel/store/chat-store.ts';

/** What of a chat's session its moves between CLIs read and change (ChatSession's). */
export interface HandoverChat {
  readonly record: ChatRecord;
  readonly fallbackChain: FallbackChain | undefined;
  readonly watcher: TurnWatcher;
  knowsCli(cli: string): boolean;
  switchCli(cli: string, sessionId: string | undefined, patch: Pick<Partial<ChatRecord>, 'home' | 'limited' | 'work'>): Promise<void>;
  set(setting: Pick<Partial<ChatRecord>, 'limited'>): Promise<void>;
}

/**
 * How a chat's session moves between CLIs: when a quota or rate limit stops its CLI, the turn
 * goes on in the next of the chat's fallback chain that is not limited, briefed on the work so
 * far; once the first CLI's limit has reset (when it said, or a default), the next turn goes
 * back to its session, briefed on what the other did. The chat is told each move in one line.
 */
export function chatHandover(chat: HandoverChat, tell: (text: string) => Promise<void>): SessionHandover {
  return {
    async before(prompt) {
      const { home, cli: from } = chat.record;
      if (!home || home.cli === from || (chat.record.limited?.[home.cli]?.until ?? 0) > Date.now()) return undefined;
      const notes = chat.record.work ?? freshNotes(from);
      const { [home.cli]: _reset, ...limited } = chat.record.limited ?? {};
      await chat.switchCli(home.cli, home.sessionId, { home: undefined, limited, work: freshNotes(home.cli) });
      const reason = `${home.cli}'s limit has reset`;
      await tell(`↩️ ${home.cli} is back (${reason}) and takes over from ${from}, told what ${from} did.`);
      const brief = briefOf({ from, to: home.cli, reason, notes, returning: true });
      return { prompt: `${brief}\n\n${prompt}`, resumeId: home.sessionId };
    },
    lostSession(prompt) {
      const { cli, work } = chat.record;
      if (work?.cli !== cli || (!work.task && !work.answers.length)) return undefined;
      return `${briefOf({ from: cli, to: cli, reason: 'its session could not be loaded', notes: work, lost: true })}\n\n${prompt}`;
    },
    async afterLimit(outcome, prompt) {
      const limit = outcome.limit!;
      const now = Date.now();
      const { record } = chat;
      const from = record.cli;
      const limited = { ...stillLimited(record, now), [from]: { kind: limit.kind, until: resetTime(limit, now) } };
      const cannot = (cli: string) => (limited[cli]?.until ?? 0) > now || !chat.knowsCli(cli);
      const next = takeOver({ from, limit, now, chain: chat.fallbackChain, cannot, notes: record.work ?? freshNotes(from), prompt, watcher: chat.watcher });
      if (!next) {
        await chat.set({ limited });
        return undefined;
      }
      const home = record.home ?? { cli: from, ...(record.cliSessionId ? { sessionId: record.cliSessionId } : {}) };
      await chat.switchCli(next.to, undefined, { limited, home, work: { ...freshNotes(next.to), files: record.work?.files ?? [] } });
      await tell(`↪️ ${next.to} took over from ${from}: ${next.reason}`);
      return { prompt: `${next.brief}\n\n${prompt}`, resumeId: undefined };
    },
  };
}

/** The limits not yet reset. */
function stillLimited(record: ChatRecord, now: number): NonNullable<ChatRecord['limited']> {
  return Object.fromEntries(Object.entries(record.limited ?? {}).filter(([, limit]) => limit.until > now));
}
