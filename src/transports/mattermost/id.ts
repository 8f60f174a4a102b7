import { chatRef, type ChatRef } from '../../kernel/ports/chat.ts';
import { personIdOn } from '../serving/incoming.ts';

/** Mattermost's transport id: what its chats' refs carry (`mattermost:<channel id>:<root post id>`), and its people's. */
export const MATTERMOST = 'mattermost';

/** Mattermost's ids: 26 lowercase letters and digits. */
const ID = /^[a-z0-9]{26}$/;

/** A channel as the bridge's ChatRef; a thread (its root post's id, `root_id`) is a chat of its own. */
export function mattermostChat(channel: string, rootId?: string): ChatRef {
  return chatRef(MATTERMOST, channel, rootId || undefined);
}

/** `mattermost:<user id>` → the id; a person of another transport has none. */
export function mattermostUserId(person: string): string | undefined {
  return personIdOn(MATTERMOST, person, ID);
}
