import { badRequest } from '../api-error.ts';
import type { MethodContext } from './context.ts';
import { resolveChat, resolveThread } from './targets.ts';

const ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

export function sendChatAction(ctx: MethodContext): true {
  const chat = resolveChat(ctx);
  const action = ctx.params.string('action');
  if (action === undefined || !ACTIONS.has(action)) throw badRequest('wrong parameter action in request');
  resolveThread(ctx, chat, undefined);
  return true;
}
