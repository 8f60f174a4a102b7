import { conversationTurn, linesByTurn, type Conversation, type ConversationTurn } from './conversation.ts';
import type { TranscriptEntry } from './transcript-entry.ts';

/**
 * The turns of one CLI session from a chat's transcript: those that ended in it, and those
 * they resumed from (a CLI may name a resumed session anew), oldest first. None: the session
 * has no turn the bridge kept.
 */
export function sessionTurns(
  entries: readonly TranscriptEntry[],
  session: string,
): { turns: ConversationTurn[]; earlierTurnsGone: boolean; cli?: string; model?: string } {
  const sessionOf = (lines: TranscriptEntry[]) => {
    for (const line of lines) if ((line.kind === 'session' || line.kind === 'end') && line.session) return line.session;
    return undefined;
  };
  // Newest first: each turn of the session adds the session it resumed.
  const ids = new Set([session]);
  const chosen: TranscriptEntry[][] = [];
  for (const lines of linesByTurn(entries).reverse()) {
    const own = sessionOf(lines);
    if (own === undefined || !ids.has(own)) continue;
    chosen.unshift(lines);
    const from = lines.find((line) => line.kind === 'prompt')?.from;
    if (from) ids.add(from);
  }
  const first = chosen[0]?.find((line) => line.kind === 'prompt');
  const turns = chosen.map(conversationTurn);
  // The CLI of its last prompt, the model of its last session line.
  const kept = chosen.flat();
  const cli = kept.flatMap((line) => (line.kind === 'prompt' ? [line.cli] : [])).at(-1);
  const model = kept.flatMap((line) => (line.kind === 'session' && line.model ? [line.model] : [])).at(-1);
  // The oldest turn kept resumed a session: what came before it is no longer in the record.
  const earlierTurnsGone = chosen.length > 0 && (first === undefined || first.kind !== 'prompt' || first.from !== undefined);
  return { turns, earlierTurnsGone, ...(cli ? { cli } : {}), model };
}

/** A chat's session as a conversation. */
export function sessionConversation(entries: readonly TranscriptEntry[], session: string, chat: string, fallbackCli: string): Conversation {
  const { turns, earlierTurnsGone, cli = fallbackCli, model } = sessionTurns(entries, session);
  return {
    kind: 'session',
    title: `Session with ${cli}`,
    chat,
    cli,
    model,
    session,
    turns,
    ...(earlierTurnsGone ? { earlierTurnsGone } : {}),
  };
}
