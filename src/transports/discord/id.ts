import { chatRef, type ChatRef } from '../../kernel/ports/chat.ts';
import { personIdOn } from '../serving/incoming.ts';

/** Discord's transport id: what its chats' refs carry (`discord:<snowflake>` where ids are written). */
export const DISCORD = 'discord';

/** A channel (a DM or a guild's text channel), or a thread of one, as the bridge's ChatRef: a thread is a session of its own. */
export function discordChat(channelId: string, threadId?: string): ChatRef {
  return chatRef(DISCORD, channelId, threadId);
}

/** The channel Discord is asked to write in: a thread is a channel of its own. */
export function channelIdOf(ref: ChatRef): string {
  return ref.thread ?? ref.chat;
}

/** `discord:81384788765712384` → its snowflake; a person of another transport has none here. */
export function discordUserId(person: string): string | undefined {
  return personIdOn(DISCORD, person, /^\d{15,21}$/);
}

/**
 * A snowflake's place in time as a number (`IncomingMessage.order`, `MessageRef.order`): its
 * milliseconds, worker and the high bits of its counter, which fit a double exactly (any
 * 64-bit snowflake does), so a message written before the bridge's question is known to be,
 * even after a restart. Messages of the same millisecond may tie: neither is then after.
 */
export function snowflakeOrder(id: string): number {
  return Number(BigInt(id) >> 10n);
}
