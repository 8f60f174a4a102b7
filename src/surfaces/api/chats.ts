import type { BusyMode } from '../../kernel/policy/busy-mode.ts';
import type { PermissionMode } from '../../kernel/policy/permission-mode.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { TurnWatch } from '../../chat/turns/turns.ts';

/** A chat's main session as the ChatService shows it. */
export interface ChatView {
  cli: string;
  model?: string;
  /** The CLI's session the next turn resumes. */
  sessionId?: string;
  workdir: string;
  permissionMode: PermissionMode;
  busyMode: BusyMode;
  /** A turn is at work (or about to be). */
  busy: boolean;
  /** The turn at work, once its CLI has started. */
  running?: { turnId: string; startedAt: number };
  /** Turns waiting behind it. */
  queued: number;
}

/**
 * What the ChatService needs of the bot's chats, passed in by the app: a message into a
 * chat's main session from something other than its people (queued behind the turn at work,
 * never steering it; the budget and the queue's limit apply), and a look at a chat.
 */
export interface ApiChats {
  /**
   * `position`: 0, it starts now; n, n-th in the chat's queue. An empty `turnId`: the bridge
   * is restarting and keeps the message for after it; `follow` hears nothing.
   */
  send(
    chat: ChatRef,
    message: { text: string; from: string },
    follow: TurnWatch,
  ): Promise<{ ok: true; turnId: string; position: number } | { ok: false; reason: string }>;
  view(chat: ChatRef): ChatView;
}
