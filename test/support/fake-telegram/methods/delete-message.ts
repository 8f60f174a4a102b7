import { badRequest } from '../api-error.ts';
import type { MethodContext } from './context.ts';
import { resolveChat } from './targets.ts';

/**
 * A bot may delete its own messages anywhere and anyone's in private chats; in groups it needs
 * to be an administrator to delete other people's messages. Topic roots cannot be deleted.
 */
export function deleteMessage(ctx: MethodContext): true {
  const chat = resolveChat(ctx);
  const messageId = ctx.params.integer('message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const record = ctx.world.message(chat.chat.id, messageId);
  if (!record) throw badRequest('message to delete not found');
  const allowed = record.topicName === undefined && (record.fromBot || chat.chat.type === 'private' || ctx.settings.botIsGroupAdmin);
  if (!allowed) throw badRequest("message can't be deleted");
  record.deleted = true;
  return true;
}
