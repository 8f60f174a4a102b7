import type { WebClient } from '@slack/web-api';
import { platformError } from './client.ts';

/** How long a name is kept before it is asked again. */
const NAME_MS = 60 * 60_000;
/** Names kept at most; the oldest go first. */
const MAX_NAMES = 5000;

/**
 * People's and conversations' names, for the dashboard and the chats' titles: users.info and
 * conversations.info, each answer kept an hour. A look-up that fails leaves the name out; the
 * message still goes through.
 */
export class SlackNames {
  private readonly names = new Map<string, { name: string | undefined; until: number }>();

  constructor(private readonly web: Pick<WebClient, 'users' | 'conversations'>) {}

  person(user: string): Promise<string | undefined> {
    return this.cached(`user:${user}`, async () => {
      const { user: info } = await this.web.users.info({ user });
      return info?.profile?.display_name || info?.real_name || info?.name || undefined;
    });
  }

  /** `#general` for a channel; a DM is named for its person. */
  conversation(channel: string): Promise<string | undefined> {
    return this.cached(`conversation:${channel}`, async () => {
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

  private async cached(key: string, ask: () => Promise<string | undefined>): Promise<string | undefined> {
    const now = Date.now();
    const held = this.names.get(key);
    if (held && held.until > now) return held.name;
    const name = await ask().catch(() => undefined);
    this.names.delete(key);
    this.names.set(key, { name, until: now + NAME_MS });
    if (this.names.size > MAX_NAMES) this.names.delete(this.names.keys().next().value!);
    return name;
  }
}
