import { commandsAsWritten } from '../../kernel/ports/capabilities.ts';
import { TransportNotServedError } from '../../kernel/ports/transport.ts';
import type {
  ChatCapabilities,
  ChatRef,
  EditOptions,
  MessageFit,
  MessageRef,
  Outbound,
  OutgoingFile,
  Picture,
  RichText,
  SendOptions,
} from '../../kernel/ports/chat.ts';

/** Any chat, where a transport's capabilities are the same in all of its chats. */
const anyChat: ChatRef = { transport: '', chat: '' };

/**
 * Every transport served, as one Outbound: each call goes to the transport its chat is on, and
 * each chat is cut and paced by its own app's rules.
 */
export class RoutedOutbound implements Outbound {
  constructor(
    private readonly byId: ReadonlyMap<string, Outbound>,
    /** The bridge's commands: each chat's texts name them as its app's people write them (see commandsAsWritten). */
    private readonly commands: ReadonlySet<string> = new Set(),
  ) {}

  async send(to: ChatRef, text: RichText, options?: SendOptions): Promise<MessageRef> {
    return this.of(to).send(to, this.written(to, text), options);
  }

  async edit(ref: MessageRef, text: RichText, options?: EditOptions): Promise<boolean> {
    return this.of(ref).edit(ref, this.written(ref, text), options);
  }

  async working(to: ChatRef, working: boolean): Promise<void> {
    await this.of(to).working?.(to, working);
  }

  async react(message: MessageRef, emoji: string): Promise<void> {
    await this.of(message).react?.(message, emoji);
  }

  async sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options?: SendOptions): Promise<MessageRef> {
    return this.of(to).sendDocument(to, this.captioned(to, document), options);
  }

  async sendFile(to: ChatRef, file: OutgoingFile, options?: SendOptions): Promise<MessageRef> {
    return this.of(to).sendFile(to, this.captioned(to, file), options);
  }

  /** To the chat's transport; one that shows no pictures refuses, and the caller goes on without. */
  async sendPicture(to: ChatRef, picture: Picture, options?: SendOptions): Promise<MessageRef> {
    const out = this.of(to);
    if (!out.sendPicture) throw new Error(`the ${to.transport} transport shows no pictures`);
    return out.sendPicture(to, this.captioned(to, picture), options);
  }

  async editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    const out = this.of(ref);
    if (!out.editPicture) throw new Error(`the ${ref.transport} transport shows no pictures`);
    return out.editPicture(ref, this.captioned(ref, picture));
  }

  /** A chat of a transport not served now is described by the tightest served: what is planned for it then fits wherever it goes. */
  capabilities(to: ChatRef): ChatCapabilities {
    return this.served(to)?.capabilities(to) ?? this.tightest().capabilities(to);
  }

  fit(to: ChatRef): MessageFit {
    return this.served(to)?.fit(to) ?? this.tightest().fit(to);
  }

  crowded(to: ChatRef): boolean {
    return this.served(to)?.crowded?.(to) ?? false;
  }

  private written(to: ChatRef, text: RichText): RichText {
    return commandsAsWritten(text, this.capabilities(to), this.commands);
  }

  /** A file's or picture's caption is a text for the chat too. */
  private captioned<T extends { caption?: RichText }>(to: ChatRef, sent: T): T {
    return sent.caption ? { ...sent, caption: this.written(to, sent.caption) } : sent;
  }

  private served(chat: ChatRef): Outbound | undefined {
    return this.byId.get(chat.transport);
  }

  private of(chat: ChatRef): Outbound {
    const out = this.served(chat);
    if (!out) throw new TransportNotServedError(chat.transport);
    return out;
  }

  private tightest(): Outbound {
    return [...this.byId.values()].reduce((a, b) => (b.capabilities(anyChat).messageChars < a.capabilities(anyChat).messageChars ? b : a));
  }
}
