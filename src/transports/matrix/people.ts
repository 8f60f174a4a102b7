import type { MatrixClient, Room } from 'matrix-js-sdk';
import { KeptNames } from '../serving/kept-names.ts';

/**
 * People's names as their room shows them (the member's display name), else as their profile
 * says (`GET /profile/{userId}`, asked once and kept a while): a room new to a resumed sync
 * carries no members.
 */
export class MatrixNames {
  private readonly names = new KeptNames();

  constructor(private readonly client: () => MatrixClient) {}

  async of(userId: string, room: Room | undefined): Promise<string | undefined> {
    const member = room?.getMember(userId)?.rawDisplayName;
    if (member && member !== userId) return member;
    return this.names.of(userId, async () => (await this.client().getProfileInfo(userId)).displayname || undefined);
  }
}
