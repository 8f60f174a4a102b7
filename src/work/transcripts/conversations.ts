import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { Conversation } from './conversation.ts';
import { runConversation } from './run-conversation.ts';
import { sessionConversation } from './session-conversation.ts';
import type { Transcripts } from './transcripts.ts';

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
