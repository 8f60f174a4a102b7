import type { Conversation, ConversationTurn, Step } from './conversation.ts';
import { withAnswer } from './conversation.ts';
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
  const byTurn = new Map<string, TranscriptEntry[]>();
  for (const entry of entries) {
    const lines = byTurn.get(entry.turn) ?? [];
    lines.push(entry);
    byTurn.set(entry.turn, lines);
  }
  const sessionOf = (lines: TranscriptEntry[]) => {
    for (const line of lines) if ((line.kind === 'session' || line.kind === 'end') && line.session) return line.session;
    return undefined;
  };
  // Newest first: each turn of the session adds the session it resumed.
  const ids = new Set([session]);
  const chosen: TranscriptEntry[][] = [];
  for (const lines of [...byTurn.values()].reverse()) {
    const own = sessionOf(lines);
    if (own === undefined || !ids.has(own)) continue;
    chosen.unshift(lines);
    const from = lines.find((line) => line.kind === 'prompt')?.from;
    if (from) ids.add(from);
  }
  const first = chosen[0]?.find((line) => line.kind === 'prompt');
  let cli: string | undefined;
  let model: string | undefined;
  const turns = chosen.map((lines) => {
    const turn: ConversationTurn = { at: lines[0]!.at, steps: [] };
    const tools = new Map<string, Extract<Step, { kind: 'tool' }>>();
    for (const line of lines) {
      switch (line.kind) {
        case 'prompt':
          turn.prompt = line.text;
          if (line.by) turn.by = line.by;
          if (line.sender) turn.sender = line.sender;
          cli = line.cli;
          break;
        case 'session':
          if (line.model) model = line.model;
          break;
        case 'text':
          turn.steps.push({ kind: 'text', text: line.text, ...(line.nested ? { nested: true as const } : {}) });
          break;
        case 'steer':
          turn.steps.push({ kind: 'message', text: line.text, ...(line.by ? { by: line.by } : {}), ...(line.sender ? { sender: line.sender } : {}) });
          break;
        case 'tool': {
          const step = {
            kind: 'tool' as const,
            id: line.id,
            name: line.name,
            summary: line.summary,
            input: line.input,
            ...(line.nested ? { nested: true as const } : {}),
          };
          tools.set(line.id, step);
          turn.steps.push(step);
          break;
        }
        case 'tool_end': {
          const step = tools.get(line.id);
          if (step) Object.assign(step, { output: line.output, ...(line.isError ? { isError: true } : {}) });
          break;
        }
        case 'end':
          turn.status = line.status;
          if (line.answer) turn.answer = line.answer;
          if (line.error) turn.error = line.error;
          if (line.costUsd !== undefined) turn.costUsd = line.costUsd;
          turn.durationMs = line.durationMs;
          break;
      }
    }
    turn.steps = withAnswer(turn.steps, turn.answer);
    return turn;
  });
  // The oldest turn kept resumed a session: what came before it is no longer in the record.
  const earlierTurnsGone = chosen.length > 0 && (first === undefined || first.kind !== 'prompt' || first.from !== undefined);
  return { turns, earlierTurnsGone, ...(cli ? { cli } : {}), ...(model ? { model } : {}) };
}

/** A chat's session as a conversation. */
export function sessionConversation(entries: readonly TranscriptEntry[], session: string, chat: string, fallbackCli: string): Conversation {
  const { turns, earlierTurnsGone, cli = fallbackCli, model } = sessionTurns(entries, session);
  return {
    kind: 'session',
    title: `Session with ${cli}`,
    chat,
    cli,
    ...(model ? { model } : {}),
    session,
    turns,
    ...(earlierTurnsGone ? { earlierTurnsGone } : {}),
  };
}
