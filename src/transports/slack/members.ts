import type { WebClient } from '@slack/web-api';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { askedMembers } from '../serving/asked-members.ts';
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
