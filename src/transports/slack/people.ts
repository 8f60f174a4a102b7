import type { WebClient } from '@slack/web-api';
import { KeptNames } from '../serving/kept-names.ts';
import { platformError } from './client.ts';

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
