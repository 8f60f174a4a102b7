import type { UserFromGetMe, WebhookInfo } from 'grammy/types';
import type { MethodContext } from './context.ts';

export function getMe(ctx: MethodContext): UserFromGetMe {
  return ctx.world.bot;
}

/** The fake only does long polling: there is never a webhook to delete. */
export function deleteWebhook(ctx: MethodContext): true {
  if (ctx.params.boolean('drop_pending_updates')) ctx.updates.dropPending();
  return true;
}

export function getWebhookInfo(ctx: MethodContext): WebhookInfo {
  return { url: '', has_custom_certificate: false, pending_update_count: ctx.updates.pendingCount };
}
