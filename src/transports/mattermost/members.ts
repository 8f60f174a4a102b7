import { CachedMembers } from '../../work/access/member-cache.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { statusOf, type MattermostApi } from './client.ts';
import { mattermostUserId } from './id.ts';

/**
 * Who is in a Mattermost channel: `GET /channels/{id}/members/{user}`, the answer kept a while
 * (CachedMembers). Not a member (404), or a channel the bot may not see (403), is a definite no;
 * anything else is "cannot tell now".
 */
export function mattermostMembers(api: MattermostApi): CachedMembers {
  return new CachedMembers(
    askedMembers(
      mattermostUserId,
      async (chat, user, limited) => {
        await limited(() => api.get(`/channels/${chat.chat}/members/${user}`));
        return true;
      },
      (error) => statusOf(error) === 404 || statusOf(error) === 403,
    ),
  );
}
