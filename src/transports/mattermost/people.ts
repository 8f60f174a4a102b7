import type { MattermostApi } from './client.ts';

/** How long a name is kept before it is asked again: people rename themselves now and then. */
const NAME_MS = 10 * 60_000;
const MAX_NAMES = 2000;

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
  private readonly names = new Map<string, { name: string | undefined; until: number }>();

  constructor(private readonly api: MattermostApi) {}

  async of(user: string, fallback: string | undefined): Promise<string | undefined> {
    const now = Date.now();
    const held = this.names.get(user);
    if (held && held.until > now) return held.name ?? fallback;
    const profile = await this.api.get<Profile>(`/users/${user}`).catch(() => undefined);
    const full = [profile?.first_name, profile?.last_name].filter(Boolean).join(' ');
    const name = full || profile?.nickname || profile?.username;
    this.names.delete(user);
    this.names.set(user, { name, until: now + NAME_MS });
    if (this.names.size > MAX_NAMES) this.names.delete(this.names.keys().next().value!);
    return name ?? fallback;
  }
}
