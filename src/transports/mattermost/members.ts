import { CachedMembers } from '../../work/access/member-cache.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { KeptNames } from '../serving/kept-names.ts';
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
        await limited(() => api.call('get', `/channels/${chat.chat}/members/${user}`));
        return true;
      },
      (error) => statusOf(error) === 404 || statusOf(error) === 403,
    ),
  );
}

interface Profile {
  username?: string;
  first_name?: string;
  last_name?: string;
  nickname?: string;
}

/**
 * People's names as Mattermost shows them (full name, else nickname, else username), asked
 * once (`GET /users/{id}`) and kept a while; the username the event carried when the server
 * cannot tell now.
 */
export class MattermostNames {
  private readonly names = new KeptNames();

  constructor(private readonly api: MattermostApi) {}

  async of(user: string, fallback: string | undefined): Promise<string | undefined> {
    const name = await this.names.of(user, async () => {
      const profile = await this.api.call<Profile>('get', `/users/${user}`);
      return [profile.first_name, profile.last_name].filter(Boolean).join(' ') || profile.nickname || profile.username;
    });
    return name ?? fallback;
  }
}
