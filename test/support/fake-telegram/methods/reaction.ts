import { badRequest } from '../api-error.ts';
import type { MethodContext } from './context.ts';
import { resolveChat } from './targets.ts';

/** Some of the emoji Telegram lets a bot react with (any other is REACTION_INVALID). */
const ALLOWED = new Set(['👍', '👎', '❤', '🔥', '👀', '✍', '👌', '🤔', '🙏', '⚡', '🏆', '💯', '😢']);

/**
 * A bot's reaction to a message in a chat it is in: each call replaces the bot's earlier one
 * (an empty list removes it). Only emoji reactions, from the allowed set.
 */
export function setMessageReaction(ctx: MethodContext): true {
  const chat = resolveChat(ctx);
  const messageId = ctx.params.integer('message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const record = ctx.world.message(chat.chat.id, messageId);
  if (!record) throw badRequest('message to react not found');
  const reaction = ctx.params.has('reaction') ? ctx.params.json('reaction', "can't parse reaction types JSON object") : [];
  if (!Array.isArray(reaction)) throw badRequest('reaction must be an array');
  if (reaction.length > 1) throw badRequest('REACTIONS_TOO_MANY');
  const emoji = reaction.map((type: unknown) => {
    const { type: kind, emoji: value } = (type ?? {}) as { type?: unknown; emoji?: unknown };
    if (kind !== 'emoji' || typeof value !== 'string' || !ALLOWED.has(value)) throw badRequest('REACTION_INVALID');
    return value;
  });
  record.botReactions = emoji;
  return true;
}
