import type { FakeMatrix } from './fake-matrix.ts';
import type { FakeRoom, RoomEvent } from './model.ts';

/** A /sync that has nothing waits for something this long at most, whatever the client asked: the tests' bridge stops fast. */
export const LONG_POLL_CAP_MS = 1000;

/** Stripped state an invite carries (Synapse's room_prejoin_state): enough to see the room's name, encryption and who invited. */
const INVITE_STATE = ['m.room.create', 'm.room.name', 'm.room.encryption', 'm.room.join_rules'];

/** An event as the client sees it: without the twin's stream position. */
export function clientEvent(event: RoomEvent): Record<string, unknown> {
  const { pos: _pos, ...rest } = event;
  return { ...rest, unsigned: {} };
}

/**
 * The /sync answer for `user` since `since` (a position in the server's stream): the rooms they
 * are in with their new events (a room joined since: its whole state too; a first sync: each
 * room's state and its last `limit` events), the rooms they are invited to with their stripped
 * state, and those they left. Undefined when there is nothing new.
 */
export function syncFor(mx: FakeMatrix, user: string, since: number | undefined, limit: number): Record<string, unknown> | undefined {
  const join: Record<string, unknown> = {};
  const invite: Record<string, unknown> = {};
  const leave: Record<string, unknown> = {};
  for (const room of mx.rooms.values()) {
    const member = room.state.get(`m.room.member\u0000${user}`);
    const membership = member?.content.membership;
    const fresh = room.events.filter((e) => since === undefined || e.pos > since);
    if (membership === 'join') {
      const joinedSince = since === undefined || member!.pos > since;
      const timeline = since === undefined ? room.events.filter((e) => e.state_key === undefined).slice(-limit) : fresh;
      if (!joinedSince && !timeline.length) continue;
      const inTimeline = new Set(timeline.map((e) => e.event_id));
      join[room.roomId] = {
        state: { events: joinedSince ? [...room.state.values()].filter((e) => !inTimeline.has(e.event_id)).map(clientEvent) : [] },
        timeline: { events: timeline.map(clientEvent), limited: false, prev_batch: `p${timeline[0]?.pos ?? 0}` },
        ephemeral: { events: [] },
        account_data: { events: [] },
        unread_notifications: {},
      };
    } else if (membership === 'invite' && (since === undefined || member!.pos > since)) {
      invite[room.roomId] = { invite_state: { events: stripped(room, member!) } };
    } else if (membership === 'leave' && since !== undefined && member!.pos > since) {
      leave[room.roomId] = { timeline: { events: [clientEvent(member!)], limited: false }, state: { events: [] } };
    }
  }
  if (since !== undefined && !Object.keys(join).length && !Object.keys(invite).length && !Object.keys(leave).length) return undefined;
  return {
    next_batch: `s${mx.position}`,
    rooms: { join, invite, leave },
    presence: { events: [] },
    account_data: { events: [] },
    to_device: { events: [] },
    device_lists: { changed: [], left: [] },
    device_one_time_keys_count: {},
  };
}

function stripped(room: FakeRoom, member: RoomEvent): Record<string, unknown>[] {
  const events = [...room.state.values()].filter((e) => INVITE_STATE.includes(e.type));
  return [...events, member].map((e) => ({ type: e.type, state_key: e.state_key, content: e.content, sender: e.sender }));
}
