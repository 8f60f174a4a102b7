import type { WebClient } from '@slack/web-api';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { KeptNames } from '../serving/kept-names.ts';
import { platformError } from './client.ts';
import { slackUserId } from './id.ts';

/**
 * Who is in a Slack conversation: conversations.members, page by page. A conversation the bot
 * cannot see (channel_not_found, not_in_channel) is a definite no; the network or a 429 is
 * "cannot tell now".
 */
export function membersThrough(web: Pick<WebClient, 'conversations'>): ChatMembers {
  return askedMembers(
    slackUserId,
    (chat, user, limited) =>
      limited(async () => {
        let cursor: string | undefined;
        do {
          const page = await web.conversations.members({ channel: chat.chat, limit: 1000, ...(cursor ? { cursor } : {}) });
          if (page.members?.includes(user)) return true;
          cursor = page.response_metadata?.next_cursor || undefined;
        } while (cursor);
        return false;
      }),
    (error) => ['channel_not_found', 'not_in_channel', 'missing_scope'].includes(platformError(error) ?? ''),
  );
}

/**
 * People's and conversations' names, for the dashboard and the chats' titles: users.info and
 * conversations.info, each answer kept an hour. A look-up that fails leaves the name out; the
 * message still goes through.
 */
export class SlackNames {
  /** Each kept an hour; 5,000 at most. */
  private readonly names = new KeptNames(60 * 60_000, 5000);

  constructor(private readonly web: Pick<WebClient, 'users' | 'conversations'>) {}

  person(user: string): Promise<string | undefined> {
    return this.names.of(`user:${user}`, async () => {
      const { user: info } = await this.web.users.info({ user });
      return info?.profile?.display_name || info?.real_name || info?.name || undefined;
    });
  }

  /** `#general` for a channel; a DM is named for its person. */
  conversation(channel: string): Promise<string | undefined> {
    return this.names.of(`conversation:${channel}`, async () => {
      const { channel: info } = (await this.web.conversations.info({ channel })) as { channel?: { is_im?: boolean; user?: string; name?: string } };
      if (info?.is_im) return info.user ? this.person(info.user) : undefined;
      return info?.name ? `#${info.name}` : undefined;
    });
  }

  /**
   * Whether the bot is in the conversation now (asked afresh: it may just have been invited);
   * undefined when Slack cannot tell now. A private channel the bot is not in is unknown to it.
   */
  async botIsIn(channel: string): Promise<boolean | undefined> {
    try {
      const { channel: info } = (await this.web.conversations.info({ channel })) as { channel?: { is_member?: boolean; is_im?: boolean } };
      return info?.is_im === true || info?.is_member === true;
    } catch (error) {
      return platformError(error) === 'channel_not_found' ? false : undefined;
    }
  }
}
