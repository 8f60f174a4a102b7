import type { Attachment } from '../../kernel/ports/chat.ts';
import { fileAttachment, mentionedText } from '../serving/incoming.ts';
import { escapeRegExp } from '../../kernel/policy/approval-rules.ts';

/** A post as the WebSocket's `posted` event carries it, as far as the bridge reads it. */
export interface EventPost {
  id: string;
  user_id: string;
  channel_id: string;
  root_id?: string;
  message?: string;
  type?: string;
  create_at?: number;
  file_ids?: string[];
  metadata?: { files?: { id: string; name?: string; mime_type?: string; size?: number }[] };
  props?: { from_bot?: string | boolean; from_webhook?: string };
}

/** The text the core gets: `@bot status` → `/status` (see mentionedText), the mention kept out of a prompt. */
export function coreText(message: string, botName: string, commands: ReadonlySet<string>): string {
  const name = escapeRegExp(botName);
  const mention = { leading: new RegExp(`^\\s*@${name}\\b[\\s:,]*`, 'i'), mention: new RegExp(`(^|\\s)@${name}\\b[\\s:,]*`, 'gi'), dropped: '$1' };
  return mentionedText(message, mention, commands);
}

/** Whether the post mentions the bot anywhere. */
export function mentions(message: string, botName: string): boolean {
  return new RegExp(`(^|[^\\w@])@${escapeRegExp(botName)}\\b`, 'i').test(message);
}

/** Whether the post opens by addressing someone else (`@bob can you…`): in the bot's thread, that is people talking among themselves. */
export function addressedToAnother(message: string, botName: string): boolean {
  const first = /^\s*@([\w.-]+)/.exec(message);
  return first !== null && first[1]!.toLowerCase() !== botName.toLowerCase();
}

/** The files a post carries, as attachments to fetch (an attachment's id is the file's). */
export function attachmentsOf(post: EventPost): Attachment[] {
  const described = new Map((post.metadata?.files ?? []).map((file) => [file.id, file]));
  return (post.file_ids ?? []).map((id) => {
    const file = described.get(id);
    return fileAttachment(id, { name: file?.name, mime: file?.mime_type, size: file?.size });
  });
}
