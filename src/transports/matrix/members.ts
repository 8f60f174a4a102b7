import type { MatrixClient, Room } from 'matrix-js-sdk';
import { CachedMembers } from '../../work/access/member-cache.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { KeptNames } from '../serving/kept-names.ts';
import { call, errcodeOf, roomPath } from './client.ts';
import { matrixUserId, roomOf } from './id.ts';

/**
 * Who is in a Matrix room: their member event (`GET /rooms/{id}/state/m.room.member/{user}`)
 * says `join`, the answer kept a while (CachedMembers). No member event (M_NOT_FOUND), or a
 * room the bot may not see (M_FORBIDDEN), is a definite no; anything else is "cannot tell now".
 */
export function matrixMembers(client: () => MatrixClient): CachedMembers {
  return new CachedMembers(
    askedMembers(
      matrixUserId,
      async (chat, user, limited) => {
        const path = roomPath(roomOf(chat), 'state', 'm.room.member', user);
        const member = await limited(() => call<{ membership?: string }>(client(), 'GET', path));
        return member.membership === 'join';
      },
      (error) => errcodeOf(error) === 'M_NOT_FOUND' || errcodeOf(error) === 'M_FORBIDDEN',
    ),
  );
}

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
