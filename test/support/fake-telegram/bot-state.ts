import type { BotCommand, User } from 'grammy/types';

/** What the bot configured or answered outside of messages: its command lists and query answers. */

export interface CallbackAnswer {
  readonly callbackQueryId: string;
  /** The pressed button's data and where it was pressed. */
  readonly data: string | undefined;
  readonly chatId: number;
  readonly messageId: number;
  readonly text: string | undefined;
  readonly showAlert: boolean;
  readonly url: string | undefined;
  readonly cacheTime: number | undefined;
  /** Date.now() when the answer arrived. */
  readonly at: number;
}

export interface PendingQuery {
  readonly id: string;
  readonly from: User;
  readonly chatId: number;
  readonly messageId: number;
  readonly data: string | undefined;
}

export class BotState {
  /** Command lists by scope and language, see `commandListKey`. */
  readonly commandLists = new Map<string, BotCommand[]>();
  readonly pendingQueries = new Map<string, PendingQuery>();
  readonly callbackAnswers: CallbackAnswer[] = [];
  private queryCounter = 0;

  nextQueryId(): string {
    // Telegram's ids are long decimal strings.
    return `${4_000_000_000_000_000_000n + BigInt(++this.queryCounter)}`;
  }
}

/** Command lists are keyed by their scope object and language code, as setMyCommands addresses them. */
export function commandListKey(scope: unknown, languageCode: string | undefined): string {
  const normalised = scope === undefined ? { type: 'default' } : scope;
  // Sorted keys: {type, chat_id} and {chat_id, type} address the same list.
  const keys = typeof normalised === 'object' && normalised !== null ? Object.keys(normalised).sort() : undefined;
  return `${JSON.stringify(normalised, keys)}|${languageCode ?? ''}`;
}
