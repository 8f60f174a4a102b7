import { badRequest } from '../api-error.ts';
import type { MethodContext } from './context.ts';
import { resolveChat } from './targets.ts';

/**
 * getChatMember as Telegram answers it: "chat not found" for a chat the bot is not in, "user
 * not found" for a user Telegram does not know (here: one who never wrote to the bot), and
 * otherwise how the user stands in the chat (`left` when they were never in it). In a private
 * chat only its own person is a member.
 */
export function getChatMember(ctx: MethodContext): unknown {
  const chat = resolveChat(ctx);
  const userId = ctx.params.integer('user_id');
  if (userId === undefined) throw badRequest('user_id is empty');
  const user = ctx.world.user(userId);
  if (!user) throw badRequest('user not found');
  if (chat.chat.type === 'private') {
    if (chat.chat.id !== userId) throw badRequest('user not found');
    return { status: 'member', user };
  }
  const standing = ctx.world.standing(chat.chat.id, userId);
  switch (standing.status) {
    case 'creator':
      return { status: 'creator', user, is_anonymous: false };
    case 'administrator':
      return { status: 'administrator', user, can_be_edited: false, is_anonymous: false, can_manage_chat: true, can_delete_messages: true };
    case 'kicked':
      return { status: 'kicked', user, until_date: 0 };
    case 'restricted':
      return { status: 'restricted', user, is_member: standing.isMember, can_send_messages: false, until_date: 0 };
    default:
      return { status: standing.status, user };
  }
}
