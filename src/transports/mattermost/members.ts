import { CachedMembers } from '../../work/access/member-cache.ts';
import { inFlightLimit } from '../../kernel/concurrency/in-flight-limit.ts';
import { statusOf, type MattermostApi } from './client.ts';
import { channelOf, mattermostUserId } from './id.ts';

/** Look-ups under way at once: a page of many chats asks side by side, within the token's rate limit. */
const LOOKUPS_AT_ONCE = 5;

/**
 * Who is in a Mattermost channel: `GET /channels/{id}/members/{user}`, the answer kept a while
 * (CachedMembers). Not a member (404), or a channel the bot may not see (403), is a definite no;
 * anything else is "cannot tell now".
 */
export function mattermostMembers(api: MattermostApi): CachedMembers {
  const limited = inFlightLimit(LOOKUPS_AT_ONCE);
  return new CachedMembers({
    async isMember(chat, person) {
      const user = mattermostUserId(person);
      if (user === undefined) return false;
      try {
        await limited(() => api.get(`/channels/${channelOf(chat)}/members/${user}`));
        return true;
      } catch (error) {
        if (statusOf(error) === 404 || statusOf(error) === 403) return false;
        throw error;
      }
    },
  });
}
