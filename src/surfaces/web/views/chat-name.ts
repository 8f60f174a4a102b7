import { CONSOLE_ADDRESS } from '../../../transports/console/console.ts';
import { chatKey, NO_CHAT } from '../../../kernel/ports/chat.ts';

/** The title kept for a chat from its messages (the group's title, the person's name), if one came. */
export type ChatTitles = (key: string) => string | undefined;

/** A chat's name on the dashboard, as its people know it; its key only while no message has named it. */
export function chatName(key: string, titles: ChatTitles): string {
  const title = titles(key);
  if (title) return title;
  if (key === chatKey(CONSOLE_ADDRESS)) return 'Console';
  if (key === chatKey(NO_CHAT)) return 'API (no chat)';
  return key;
}
