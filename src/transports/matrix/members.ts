import type { MatrixClient } from 'matrix-js-sdk';
import { inFlightLimit } from '../../kernel/concurrency/in-flight-limit.ts';
import { CachedMembers } from '../../work/access/member-cache.ts';
import { call, errcodeOf } from './client.ts';
import { matrixUserId, roomOf } from './id.ts';

/** Look-ups under way at once: a page of many chats asks side by side, within the bot's rate limit. */
const LOOKUPS_AT_ONCE = 5;

/**
 * Who is in a Matrix room: their member event (`GET /rooms/{id}/state/m.room.member/{user}`)
 * says `join`, the answer kept a while (CachedMembers). No member event (M_NOT_FOUND), or a
 * room the bot may not see (M_FORBIDDEN), is a definite no; anything else is "cannot tell now".
 */
export function matrixMembers(client: () => MatrixClient): CachedMembers {
  const limited = inFlightLimit(LOOKUPS_AT_ONCE);
  return new CachedMembers({
    async isMember(chat, person) {
      const user = matrixUserId(person);
      if (user === undefined) return false;
      try {
        const path = `/rooms/${encodeURIComponent(roomOf(chat))}/state/m.room.member/${encodeURIComponent(user)}`;
        const member = await limited(() => call<{ membership?: string }>(client(), 'GET', path));
        return member.membership === 'join';
      } catch (error) {
        if (errcodeOf(error) === 'M_NOT_FOUND' || errcodeOf(error) === 'M_FORBIDDEN') return false;
        throw error;
      }
    },
  });
}
