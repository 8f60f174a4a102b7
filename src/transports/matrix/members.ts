import type { MatrixClient } from 'matrix-js-sdk';
import { CachedMembers } from '../../work/access/member-cache.ts';
import { askedMembers } from '../serving/asked-members.ts';
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
