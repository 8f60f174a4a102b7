import { chatRef, type ChatRef } from '../../kernel/ports/chat.ts';

/** Teams' transport id: what its chats' refs carry, and its people's (`teams:<aad object id>`). */
export const TEAMS = 'teams';

/** How a channel's conversation id names one of its reply chains: `19:…@thread.tacv2;messageid=<root>`. */
const REPLY_CHAIN = /^(.*);messageid=(\d+)$/;

/**
 * A Teams conversation as the bridge's ChatRef: a channel's reply chain is a session of its own
 * (its chat the channel, its thread the root post's id); a group or personal chat is one chat.
 */
export function teamsChat(conversationId: string): ChatRef {
  const chain = REPLY_CHAIN.exec(conversationId);
  return chain ? chatRef(TEAMS, ownId(chain[1]!), chain[2]) : chatRef(TEAMS, ownId(conversationId));
}

/** A personal chat (its conversation id `a:…`): every message there is for the bot. */
export function isPersonal(ref: ChatRef): boolean {
  return ref.chat.startsWith('a~');
}

/** The conversation id the Bot Connector takes for a ref: a reply chain's keeps its root. */
export function conversationOf(ref: ChatRef): string {
  const chat = ref.chat.replaceAll('~', ':');
  return ref.thread ? `${chat};messageid=${ref.thread}` : chat;
}

/** Teams' ids hold colons (`19:…`, `a:…`), which a chat's key uses between its parts: `~` stands for them. */
function ownId(conversationId: string): string {
  return conversationId.replaceAll(':', '~');
}
