import type { Attachment } from '../../kernel/ports/chat.ts';
import { asCommand, fileAttachment } from '../serving/incoming.ts';
import { escapeRegExp } from '../../kernel/policy/approval-rules.ts';

/** A room message's content, as far as the bridge reads it. */
export interface MessageContent {
  msgtype?: string;
  body?: string;
  format?: string;
  formatted_body?: string;
  url?: string;
  filename?: string;
  info?: { mimetype?: string; size?: number };
  'm.mentions'?: { user_ids?: string[] };
  'm.relates_to'?: { rel_type?: string; event_id?: string; key?: string; is_falling_back?: boolean; 'm.in_reply_to'?: { event_id?: string } };
  'm.new_content'?: unknown;
}

/** Who the bot is: its user id and the name its room members see. */
export interface MatrixIdentity {
  userId: string;
  displayName?: string;
}

/**
 * The text the core gets. Matrix clients take `/…` for themselves, so a command is written
 * `!status` (`!bridge status` where several bots share a room) or `@bot status`, the bot named
 * by its user id, its localpart or its display name (a mention pill's text): each becomes
 * `/status`. A leading mention is taken off what reaches the agent.
 */
export function coreText(body: string, me: MatrixIdentity, commands: ReadonlySet<string>): string {
  const text = withoutReplyFallback(body).trim();
  const bang = /^!(?:bridge\s+)?(?=[A-Za-z])/i.exec(text)?.[0];
  const command = bang && asCommand(text.slice(bang.length), commands);
  if (command) return command;
  const leading = new RegExp(`^(?:${names(me).join('|')})\\b[\\s:,]*`, 'i');
  if (leading.test(text)) {
    const rest = text.replace(leading, '').trim();
    return asCommand(rest, commands, true) ?? rest;
  }
  return text;
}

/** Whether the message mentions the bot: in its `m.mentions`, or by name in its text. */
export function mentions(content: MessageContent, me: MatrixIdentity): boolean {
  if (content['m.mentions']?.user_ids?.includes(me.userId)) return true;
  const text = `${withoutReplyFallback(content.body ?? '')} ${content.formatted_body ?? ''}`;
  return new RegExp(`(^|[^\\w@])(?:${names(me).join('|')})\\b`, 'i').test(text) || text.includes(`matrix.to/#/${me.userId}`);
}

/** Whether it is a command written the Matrix way (`!status`, `!bridge status`). */
export function isBangCommand(body: string, commands: ReadonlySet<string>): boolean {
  const match = /^!(?:bridge\s+)?([A-Za-z][\w-]*)/i.exec(body.trim());
  return match !== null && commands.has(match[1]!.toLowerCase());
}

/** The message this one replies to, by its event id: a reply, not the fallback a thread's every message carries (`is_falling_back`). */
export function repliedEventOf(content: MessageContent): string | undefined {
  const relation = content['m.relates_to'];
  return relation?.is_falling_back ? undefined : relation?.['m.in_reply_to']?.event_id;
}

/** The thread a message is in (`m.thread`), by its root event. */
export function threadRootOf(content: MessageContent): string | undefined {
  const relation = content['m.relates_to'];
  return relation?.rel_type === 'm.thread' && relation.event_id ? relation.event_id : undefined;
}

/** The file a message carries (`m.file`, `m.image`, `m.audio`, `m.video`), as an attachment to fetch by its `mxc://` address. */
export function attachmentsOf(content: MessageContent): Attachment[] {
  if (!['m.file', 'm.image', 'm.audio', 'm.video'].includes(content.msgtype ?? '') || !content.url?.startsWith('mxc://')) return [];
  const { mimetype: mime, size } = content.info ?? {};
  return [fileAttachment(content.url, { name: content.filename ?? content.body, mime, size, kind: content.msgtype === 'm.image' ? 'photo' : undefined })];
}

/** A file's caption: its body when the file has its own name (Matrix 1.10), else none. */
export function captionOf(content: MessageContent): string {
  return content.filename && content.body && content.body !== content.filename ? content.body : '';
}

/** A reply's quoted fallback (`> <@alice:…> …` lines) is the client's, not what the person wrote. */
export function withoutReplyFallback(body: string): string {
  return body.replace(/^(> .*\n)+\n?/, '');
}

function names(me: MatrixIdentity): string[] {
  const localpart = /^@([^:]+):/.exec(me.userId)?.[1];
  return [me.userId, ...(localpart ? [`@${localpart}`] : []), ...(me.displayName ? [me.displayName] : [])].map(escapeRegExp);
}
