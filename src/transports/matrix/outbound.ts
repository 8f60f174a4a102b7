import type { MatrixClient } from 'matrix-js-sdk';
import {
  chatKey,
  type ChatRef,
  type EditOptions,
  type MessageRef,
  type Outbound,
  type Picture,
  type RichText,
  type SendOptions,
} from '../../kernel/ports/chat.ts';
import { AppOutbound, checkSize, unlessGone, type Upload } from '../serving/app-outbound.ts';
import { plainText } from '../../kernel/rich/index.ts';
import { buttonLines, KEYS, type ButtonMemory } from './buttons.ts';
import { MATRIX_CAPABILITIES, MATRIX_FIT, MATRIX_ROOM_LIMIT } from './capabilities.ts';
import { call, errcodeOf, retryAfter, roomPath } from './client.ts';
import { renderHtml } from './format/html.ts';
import { MATRIX, roomOf, threadOf } from './id.ts';

/** An event's JSON is at most 64 KiB: past this the fallbacks and HTML are left out. */
const MAX_EVENT_BYTES = 60_000;

type Content = Record<string, unknown>;

/** What each kind of file is said to hold. */
const MIME_TYPES: Readonly<Record<Upload['kind'], string>> = { document: 'text/plain', file: 'application/octet-stream', picture: 'image/png' };

/**
 * The bridge's Outbound over the Client-Server API: messages as `m.notice` (bots' messages,
 * which other bots do not answer) with a plain `body` and its `org.matrix.custom.html`, a
 * thread's under its `m.thread` relation; progress as edits of one message (`m.replace`);
 * buttons as reactions on the message, keyed 1️⃣ 2️⃣ …; files uploaded to the media repository
 * and sent as `m.file` or `m.image`. Each room's calls keep to its send budget; an
 * M_LIMIT_EXCEEDED pauses that room for its `retry_after_ms`.
 */
export class MatrixOutbound extends AppOutbound implements Outbound {
  constructor(
    private readonly client: () => MatrixClient,
    private readonly buttons: ButtonMemory,
  ) {
    super(MATRIX, MATRIX_CAPABILITIES, MATRIX_FIT, MATRIX_ROOM_LIMIT, retryAfter);
  }

  protected override placeOf(to: ChatRef): string {
    return roomOf(to);
  }

  send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.message(to, async () => {
      const lines = buttonLines(options.buttons);
      const ref = await this.event(to, 'm.room.message', { ...message(text, lines), ...this.inThread(to, options.replyTo) });
      await this.setReactions(ref, lines.data);
      return ref;
    });
  }

  edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    return this.edited(
      ref,
      async () => {
        const lines = buttonLines(options.buttons);
        const edited = await this.replace(ref, message(text, lines));
        if (edited) await this.setReactions(ref, lines.data, false);
        return edited;
      },
      options.urgent,
    );
  }

  async react(target: MessageRef, emoji: string): Promise<void> {
    await this.reacted(
      target,
      () => this.event(target, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: target.messageId, key: emoji } }),
      `:${emoji}`,
    );
  }

  /** The new picture is uploaded, and replaces the old in the same message. */
  editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    return this.edited(ref, async () => this.replace(ref, await this.media(picture.filename, Buffer.from(picture.png), 'image/png')));
  }

  /** A caption goes as the message before its file: the Matrix clients that show a file's caption are still few. */
  protected async upload(to: ChatRef, file: Upload, caption: RichText | undefined, options: SendOptions): Promise<MessageRef> {
    checkSize(file, MATRIX_CAPABILITIES.uploadBytes, 'a homeserver takes by default');
    if (caption && caption.text.trim()) await this.send(to, caption);
    return this.message(to, async () => {
      const lines = buttonLines(options.buttons);
      const media = await this.media(file.name, file.bytes, MIME_TYPES[file.kind]);
      const ref = await this.event(to, 'm.room.message', { ...media, ...this.inThread(to, options.replyTo) });
      await this.setReactions(ref, lines.data);
      return ref;
    });
  }

  /** The file in the media repository, as a message's content. */
  private async media(name: string, bytes: Buffer, type: string): Promise<Content> {
    const { content_uri: url } = await this.client().uploadContent(bytes, { name, type, includeFilename: true });
    return { msgtype: type.startsWith('image/') ? 'm.image' : 'm.file', body: name, filename: name, url, info: { mimetype: type, size: bytes.length } };
  }

  /** Where a thread's messages go: under its root, as a reply to the message given (else the root) for clients without threads. */
  private inThread(to: ChatRef, replyTo: string | undefined): Content {
    const root = threadOf(to);
    if (root) return { 'm.relates_to': { rel_type: 'm.thread', event_id: root, is_falling_back: !replyTo, 'm.in_reply_to': { event_id: replyTo ?? root } } };
    return replyTo ? { 'm.relates_to': { 'm.in_reply_to': { event_id: replyTo } } } : {};
  }

  private async event(to: ChatRef, type: string, content: Content): Promise<MessageRef> {
    const path = roomPath(roomOf(to), 'send', type, this.client().makeTxnId());
    const sent = await call<{ event_id: string }>(this.client(), 'PUT', path, within(content));
    return { ...to, messageId: sent.event_id };
  }

  /** A message replaced by its edit; one the bot may no longer edit (M_FORBIDDEN) or that is gone (M_NOT_FOUND) is no error, only gone. */
  private replace(ref: MessageRef, fresh: Content): Promise<boolean> {
    return unlessGone(
      () =>
        this.event(ref, 'm.room.message', {
          ...fresh,
          body: `* ${fresh.body as string}`,
          ...(fresh.formatted_body ? { formatted_body: `* ${fresh.formatted_body as string}` } : {}),
          'm.new_content': fresh,
          'm.relates_to': { rel_type: 'm.replace', event_id: ref.messageId },
        }),
      (error) => errcodeOf(error) === 'M_FORBIDDEN' || errcodeOf(error) === 'M_NOT_FOUND',
    );
  }

  /** The message's keys as the bot's reactions, those of buttons gone taken off (redacted). */
  private async setReactions(ref: MessageRef, data: string[], asked = true): Promise<void> {
    const chat = { transport: ref.transport, chat: ref.chat, ...(ref.thread ? { thread: ref.thread } : {}) };
    const held = this.buttons.keep(ref.messageId, chatKey(ref), { chat, data }, asked);
    const keys: string[] = KEYS.slice(0, data.length);
    for (const [key, reaction] of [...held]) {
      if (keys.includes(key)) continue;
      const path = roomPath(roomOf(ref), 'redact', reaction, this.client().makeTxnId());
      await call(this.client(), 'PUT', path, {}).catch(() => undefined);
      held.delete(key);
    }
    for (const key of keys.filter((k) => !held.has(k))) {
      const reaction = await this.event(ref, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: ref.messageId, key } });
      held.set(key, reaction.messageId);
    }
  }
}

/** A message's content: its plain body and HTML, its buttons' line under both. */
function message(text: RichText, lines: { plain: string; html: string }): Content {
  const [plain, html] = [plainText(text), renderHtml(text)];
  return {
    msgtype: 'm.notice',
    body: lines.plain ? `${plain}\n\n${lines.plain}` : plain,
    format: 'org.matrix.custom.html',
    formatted_body: lines.html ? `${html}<br><br>${lines.html}` : html,
  };
}

/** An event's content within the 64 KiB an event holds: past it, the edit's fallback goes, then the HTML. */
function within(content: Content): Content {
  const size = (c: Content) => Buffer.byteLength(JSON.stringify(c));
  if (size(content) <= MAX_EVENT_BYTES) return content;
  const { formatted_body: _html, ...lean }: Content = { ...content, ...(content['m.new_content'] ? { body: '* (edited)' } : {}) };
  if (size(lean) <= MAX_EVENT_BYTES) return lean;
  const inner = lean['m.new_content'] as Content | undefined;
  if (inner) lean['m.new_content'] = { msgtype: inner.msgtype, body: inner.body };
  else return { msgtype: lean.msgtype, body: lean.body, ...(lean['m.relates_to'] ? { 'm.relates_to': lean['m.relates_to'] } : {}) };
  return lean;
}
