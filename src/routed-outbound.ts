import type { ChatRef, EditOptions, MessageRef, Outbound, OutgoingFile, Picture, RichText, SendOptions } from './ports/transport.ts';
import type { Frame } from './rich/edit.ts';

/**
 * Several transports served at once (the chat app, and the web pages beside it) as one
 * Outbound: each call goes to the transport its chat is on. Cutting and previews, which
 * know no chat, follow the first transport: its limits are the tightest.
 */
export class RoutedOutbound implements Outbound {
  private readonly byId: Map<string, Outbound>;

  constructor(
    private readonly primary: { id: string; out: Outbound },
    others: { id: string; out: Outbound }[],
  ) {
    this.byId = new Map([primary, ...others].map((t) => [t.id, t.out]));
  }

  send(to: ChatRef, text: RichText, options?: SendOptions): Promise<MessageRef> {
    return this.of(to).send(to, text, options);
  }

  edit(ref: MessageRef, text: RichText, options?: EditOptions): Promise<boolean> {
    return this.of(ref).edit(ref, text, options);
  }

  async react(message: MessageRef, emoji: string): Promise<void> {
    await this.of(message).react?.(message, emoji);
  }

  sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options?: SendOptions): Promise<MessageRef> {
    return this.of(to).sendDocument(to, document, options);
  }

  sendFile(to: ChatRef, file: OutgoingFile, options?: SendOptions): Promise<MessageRef> {
    return this.of(to).sendFile(to, file, options);
  }

  /** To the chat's transport; one that shows no pictures refuses, and the caller goes on without. */
  sendPicture(to: ChatRef, picture: Picture, options?: SendOptions): Promise<MessageRef> {
    const out = this.of(to);
    if (!out.sendPicture) return Promise.reject(new Error(`the ${to.transport} transport shows no pictures`));
    return out.sendPicture(to, picture, options);
  }

  editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    const out = this.of(ref);
    if (!out.editPicture) return Promise.reject(new Error(`the ${ref.transport} transport shows no pictures`));
    return out.editPicture(ref, picture);
  }

  split(text: RichText, frame?: Frame): RichText[] {
    return this.primary.out.split(text, frame);
  }

  preview(text: RichText): RichText | undefined {
    return this.primary.out.preview(text);
  }

  crowded(to: ChatRef): boolean {
    return this.of(to).crowded?.(to) ?? false;
  }

  private of(chat: ChatRef): Outbound {
    const out = this.byId.get(chat.transport);
    if (!out) throw new Error(`no transport "${chat.transport}" for chat ${chat.chat}`);
    return out;
  }
}
