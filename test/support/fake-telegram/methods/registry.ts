import { answerCallbackQuery } from './callback-query.ts';
import { getChatMember } from './chat-member.ts';
import { sendChatAction } from './chat-action.ts';
import { deleteMyCommands, getMyCommands, setMyCommands } from './commands.ts';
import type { MethodHandler } from './context.ts';
import { deleteMessage } from './delete-message.ts';
import { deleteWebhook, getMe, getWebhookInfo } from './bot-info.ts';
import { editMessageReplyMarkup, editMessageText } from './edit-message.ts';
import { editMessageMedia } from './edit-message-media.ts';
import { getUpdates } from './get-updates.ts';
import { getFile } from './get-file.ts';
import { setMessageReaction } from './reaction.ts';
import { sendDocument } from './send-document.ts';
import { sendPhoto } from './send-photo.ts';
import { sendMessage } from './send-message.ts';

const HANDLERS: Record<string, MethodHandler> = {
  getMe,
  getUpdates,
  deleteWebhook,
  getWebhookInfo,
  setMyCommands,
  getMyCommands,
  deleteMyCommands,
  sendMessage,
  editMessageText,
  editMessageReplyMarkup,
  editMessageMedia,
  deleteMessage,
  setMessageReaction,
  sendChatAction,
  answerCallbackQuery,
  sendDocument,
  sendPhoto,
  getFile,
  getChatMember,
};

// Telegram matches method names case-insensitively.
const BY_LOWER_NAME = new Map(Object.entries(HANDLERS).map(([name, handler]) => [name.toLowerCase(), handler]));

export function findHandler(method: string): MethodHandler | undefined {
  return BY_LOWER_NAME.get(method.toLowerCase());
}
