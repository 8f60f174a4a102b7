import { briefOf } from '../../engine/fallback/brief.ts';
import { limitReason, resetTime } from '../../engine/fallback/limit-words.ts';
import { freshNotes } from '../../engine/fallback/work-notes.ts';
import { nextInChain } from '../../kernel/policy/fallback-chain.ts';
import type { SessionHandover } from '../../engine/session/session-config.ts';
import type { FallbackChain } from '../../kernel/policy/fallback-chain.ts';
import type { ChatRecord } from '../../kernel/store/chat-store.ts';
import type { TurnWatcher } from '../../engine/fallback/work-notes.ts';

/** What of a chat's session its moves between CLIs read and change (ChatSession's). */
export interface HandoverChat {
  readonly record: ChatRecord;
  readonly fallbackChain: FallbackChain | undefined;
  readonly watcher: TurnWatcher;
  knowsCli(cli: string): boolean;
  switchCli(cli: string, sessionId: string | undefined, patch: Pick<Partial<ChatRecord>, 'home' | 'limited' | 'work'>): Promise<void>;
  saveLimits(limited: ChatRecord['limited']): Promise<void>;
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
      if (!home || home.cli === from || limitedUntil(chat.record, home.cli) > Date.now()) return undefined;
      const notes = chat.record.work ?? freshNotes(from);
      const { [home.cli]: _reset, ...limited } = chat.record.limited ?? {};
      await chat.switchCli(home.cli, home.sessionId, { home: undefined, limited, work: freshNotes(home.cli) });
      const reason = `${home.cli}'s limit has reset`;
      await tell(`↩️ ${home.cli} is back (${reason}) and takes over from ${from}, told what ${from} did.`);
      const brief = briefOf({ from, to: home.cli, reason, notes, returning: true });
      return { prompt: `${brief}\n\n${prompt}`, resumeId: home.sessionId };
    },
    async afterLimit(outcome, prompt) {
      const limit = outcome.limit!;
      const now = Date.now();
      const from = chat.record.cli;
      const limited = { ...stillLimited(chat.record, now), [from]: { kind: limit.kind, until: resetTime(limit, now) } };
      const chain = chat.fallbackChain;
      const to = chain ? nextInChain(chain, from, (cli) => (limited[cli]?.until ?? 0) > now || !chat.knowsCli(cli)) : undefined;
      if (!to) {
        await chat.saveLimits(limited);
        return undefined;
      }
      const watcher = chat.watcher;
      const reason = limitReason(from, limit, now);
      const brief = briefOf({
        from,
        to,
        reason,
        notes: chat.record.work ?? freshNotes(from),
        current: {
          prompt,
          files: watcher.files,
          ...(watcher.inFlight ? { inFlight: watcher.inFlight } : {}),
          ...(watcher.lastText ? { said: watcher.lastText } : {}),
        },
      });
      const home = chat.record.home ?? { cli: from, ...(chat.record.cliSessionId ? { sessionId: chat.record.cliSessionId } : {}) };
      await chat.switchCli(to, undefined, { limited, home, work: { ...freshNotes(to), files: chat.record.work?.files ?? [] } });
      await tell(`↪️ ${to} took over from ${from}: ${reason}`);
      return { prompt: `${brief}\n\n${prompt}`, resumeId: undefined };
    },
  };
}

function limitedUntil(record: ChatRecord, cli: string): number {
  return record.limited?.[cli]?.until ?? 0;
}

/** The limits not yet reset. */
function stillLimited(record: ChatRecord, now: number): NonNullable<ChatRecord['limited']> {
  return Object.fromEntries(Object.entries(record.limited ?? {}).filter(([, limit]) => limit.until > now));
}
