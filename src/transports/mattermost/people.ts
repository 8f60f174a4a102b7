import { KeptNames } from '../serving/kept-names.ts';
import type { MattermostApi } from './client.ts';

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
      const profile = await this.api.get<Profile>(`/users/${user}`);
      return [profile.first_name, profile.last_name].filter(Boolean).join(' ') || profile.nickname || profile.username;
    });
    return name ?? fallback;
  }
}
