import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { displayName, type SubagentRunRecord } from '../subagents/record.ts';
import { conversationTurn, linesByTurn, type Conversation } from './conversation.ts';
import type { TranscriptEntry } from './transcript-entry.ts';
import type { Transcripts } from './transcripts.ts';
import { entryOf } from './turn-recorder.ts';

/** Where conversations come from: the chats' transcripts, the runs' logs, and the chats' names. */
export interface ConversationSources {
  transcripts: Pick<Transcripts, 'read'>;
  /** A run's decoded log. */
  events(run: SubagentRunRecord): Promise<AgentEvent[]>;
  /** A chat as its people know it (its title), by key. */
  chatName(key: string): string;
}

/** The conversations /export sends and share links show, built the same way for both. */
export class Conversations {
  constructor(private readonly sources: ConversationSources) {}

  /** The chat's (`chatKey`) CLI session `session`, as its transcript kept it. */
  async session(chat: string, session: string, cli: string): Promise<Conversation> {
    return sessionConversation(await this.sources.transcripts.read(chat), session, this.sources.chatName(chat), cli);
  }

  async run(run: SubagentRunRecord): Promise<Conversation> {
    return runConversation(run, await this.sources.events(run), this.sources.chatName(run.requesterKey));
  }
}

/**
 * A chat's CLI session as a conversation, from its transcript: the turns that ended in it, and
 * those they resumed from (a CLI may name a resumed session anew), oldest first. None: the
 * session has no turn the bridge kept.
 */
export function sessionConversation(entries: readonly TranscriptEntry[], session: string, chat: string, fallbackCli: string): Conversation {
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
  // The CLI of its last prompt, the model of its last session line.
  const kept = chosen.flat();
  const cli = kept.flatMap((line) => (line.kind === 'prompt' ? [line.cli] : [])).at(-1) || fallbackCli;
  const model = kept.flatMap((line) => (line.kind === 'session' && line.model ? [line.model] : [])).at(-1);
  // The oldest turn kept resumed a session: what came before it is no longer in the record.
  const earlierTurnsGone = chosen.length > 0 && (first === undefined || first.kind !== 'prompt' || first.from !== undefined);
  return {
    kind: 'session',
    title: `Session with ${cli}`,
    chat,
    cli,
    model,
    session,
    turns: chosen.map(conversationTurn),
    ...(earlierTurnsGone ? { earlierTurnsGone } : {}),
  };
}

/**
 * A run as a conversation, from its decoded log read as the record a chat's turns keep: its
 * task is the first turn's prompt; each result the CLI reported ends a turn (a message sent to
 * the run makes the next one).
 */
export function runConversation(run: SubagentRunRecord, events: readonly AgentEvent[], chat: string): Conversation {
  const at = run.startedAt ?? run.createdAt;
  const { requester } = run;
  const by = requester.kind === 'user' ? { by: personOf(requester.userId, run.chat.transport), sender: requester.name } : {};
  const entries: TranscriptEntry[] = [{ turn: '0', at, kind: 'prompt', text: run.task, cli: run.cli, ...by }];
  /** What an `error` event said, by turn: a turn's own failed result says it instead. */
  const errors = new Map<string, string>();
  let turn = 0;
  let open = true;
  for (const event of events) {
    if (!open && (event.type === 'text' || event.type === 'tool_start')) {
      turn++;
      open = true;
    }
    const id = String(turn);
    if (event.type === 'error') errors.set(id, event.message);
    else if (event.type !== 'result') {
      const entry = entryOf(event, id, at);
      if (entry) entries.push(entry);
    } else {
      const { isError, text, costUsd, durationMs } = event;
      entries.push({
        turn: id,
        at,
        kind: 'end',
        status: isError ? 'failed' : 'completed',
        answer: isError ? '' : text,
        ...(isError ? { error: text } : {}),
        costUsd,
        durationMs,
      });
      open = false;
    }
  }
  const turns = linesByTurn(entries).map((lines) => {
    const kept = conversationTurn(lines);
    const error = errors.get(lines[0]!.turn);
    if (error && !kept.error) kept.error = error;
    return kept;
  });
  const last = turns.at(-1);
  if (last && run.error && !last.error && run.status !== 'completed') last.error = run.error;
  const started = events.filter((event) => event.type === 'started');
  const model = run.model ?? started.find((event) => event.model)?.model;
  return {
    kind: 'run',
    title: `Run #${run.number} ${displayName(run)}`,
    chat,
    cli: run.cli,
    model,
    session: started[0]?.sessionId,
    status: run.status,
    turns,
  };
}

/** A person as the transcripts name them (`<transport>:<id>`): a run's record keeps the transport's own id. */
function personOf(userId: string, transport: string): string {
  return userId.includes(':') ? userId : `${transport}:${userId}`;
}
