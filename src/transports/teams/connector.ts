import { TeamsInfo, type CloudAdapter, type ConversationReference, type TurnContext } from 'botbuilder';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { KeptStrings } from '../serving/kept-strings.ts';
import { conversationOf, TEAMS } from './id.ts';
import { personIdOn } from '../serving/incoming.ts';

/**
 * The Bot Connector of each conversation, reached through the CloudAdapter: a turn context in
 * the chat's conversation whose connector carries the app's token, for the bridge's own
 * messages (proactive, in Teams' words) and its questions about the chat.
 */
export class TeamsConnector {
  constructor(
    private readonly adapter: CloudAdapter,
    private readonly appId: string,
    private readonly tenantId: string,
    /** Each conversation's service URL, by the chat's id. */
    private readonly conversations: KeptStrings,
  ) {}

  async within<T>(to: ChatRef, work: (context: TurnContext) => Promise<T>): Promise<T> {
    const serviceUrl = this.conversations.get(to.chat);
    if (!serviceUrl) throw new Error('Teams: nobody has written to the bot in this conversation since its data was kept, so its service is unknown');
    const reference: Partial<ConversationReference> = {
      channelId: 'msteams',
      serviceUrl,
      bot: { id: `28:${this.appId}`, name: '' },
      conversation: { id: conversationOf(to), isGroup: true, conversationType: '', name: '', tenantId: this.tenantId },
    };
    let result: T | undefined;
    await this.adapter.continueConversationAsync(this.appId, reference, async (context) => {
      result = await work(context);
    });
    return result as T;
  }

  /** Who is in a chat, asked of Teams (a channel's: its team's members). */
  members(): ChatMembers {
    return {
      isMember: async (chat, person) => {
        const id = personIdOn(TEAMS, person, /./);
        if (!id) return false;
        return this.within(chat, async (context) => {
          try {
            await TeamsInfo.getMember(context, id);
            return true;
          } catch {
            return false;
          }
        }).catch(() => false);
      },
    };
  }
}
