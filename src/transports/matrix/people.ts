import type { MatrixClient, Room } from 'matrix-js-sdk';

/** How long a name is kept before it is asked again: people rename themselves now and then. */
const NAME_MS = 10 * 60_000;
const MAX_NAMES = 2000;

/**
 * People's names as their room shows them (the member's display name), else as their profile
 * says (`GET /profile/{userId}`, asked once and kept a while): a room new to a resumed sync
 * carries no members.
 */
export class MatrixNames {
  private readonly names = new Map<string, { name: string | undefined; until: number }>();

  constructor(private readonly client: () => MatrixClient) {}

  async of(userId: string, room: Room | undefined): Promise<string | undefined> {
    const member = room?.getMember(userId)?.rawDisplayName;
    if (member && member !== userId) return member;
    const now = Date.now();
    const held = this.names.get(userId);
    if (held && held.until > now) return held.name;
    const profile = await this.client()
      .getProfileInfo(userId)
      .catch(() => undefined);
    const name = profile?.displayname || undefined;
    this.names.delete(userId);
    this.names.set(userId, { name, until: now + NAME_MS });
    if (this.names.size > MAX_NAMES) this.names.delete(this.names.keys().next().value!);
    return name;
  }
}
