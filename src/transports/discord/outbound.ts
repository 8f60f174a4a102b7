import { Routes, type APIMessage, type RawFile, type REST } from 'discord.js';
import type { Button, ChatRef, EditOptions, MessageRef, Outbound, Picture, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import { AppOutbound, checkSize, markdownWithin, sentRef, unlessGone, type Upload } from '../serving/app-outbound.ts';
import { DISCORD_CAPABILITIES, DISCORD_FIT, DISCORD_CHANNEL_LIMIT } from './capabilities.ts';
import { actionRows } from './components.ts';
import { channelIdOf, DISCORD, snowflakeOrder } from './id.ts';
import type { PendingInteractions } from './interactions.ts';
import { discordCode } from './rest.ts';

/** Links are shown as links, not as embeds under the message: an answer full of links stays readable. */
const SUPPRESS_EMBEDS = 1 << 2;
/** The bridge's messages never ping anyone: an agent writing `@everyone` or `<@id>` notifies nobody. */
const NO_PINGS = { parse: [] as string[] };
/** Answers meaning the message, its channel or its interaction is gone: an edit of it is no error. */
const GONE = new Set([10003, 10008, 10015, 10062]);

/**
 * The bridge's Outbound over Discord's REST API. Each channel's calls keep to its send budget
 * (Discord's 5 a channel every 5 s; new messages ahead of progress edits, a waiting edit
 * replaced by a newer one of the same message); beneath it, discord.js's queue keeps to the
 * limits Discord's headers state and waits out a 429. Rich text goes as Discord Markdown; the
 * first message answering an application command takes the place of its deferred reply.
 */
export class DiscordOutbound extends AppOutbound implements Outbound {
  constructor(
    private readonly rest: REST,
    private readonly interactions: PendingInteractions,
    /** The application's id, known once connected: interaction webhooks are under it. */
    private readonly application: () => string,
  ) {
    super(DISCORD, DISCORD_CAPABILITIES, DISCORD_FIT, DISCORD_CHANNEL_LIMIT);
  }

  protected override placeOf(to: ChatRef): string {
    return channelIdOf(to);
  }

  send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.message(to, () => this.post(to, this.body(text, options.buttons), [], options.replyTo));
  }

  edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    return this.edited(ref, () => this.patch(ref, this.body(text, options.buttons ?? []), []), options.urgent);
  }

  async react(message: MessageRef, emoji: string): Promise<void> {
    const channel = channelIdOf(message);
    // Reactions have a bucket of their own: they wait for nothing else of the channel.
    await this.rest.put(Routes.channelMessageOwnReaction(channel, message.messageId, emoji));
  }

  /** The message's file replaced by the new picture (the old attachment dropped), its text by the caption. */
  editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    const body = { ...(picture.caption ? this.body(picture.caption) : { content: '' }), attachments: [{ id: 0, filename: picture.filename }] };
    return this.edited(ref, () => this.patch(ref, body, [{ name: picture.filename, data: Buffer.from(picture.png) }]));
  }

  protected async upload(to: ChatRef, file: Upload, caption: RichText | undefined, options: SendOptions): Promise<MessageRef> {
    checkSize(file, DISCORD_CAPABILITIES.uploadBytes, 'a bot may upload to Discord');
    const body = { ...this.body(caption, options.buttons), attachments: [{ id: 0, filename: file.name }] };
    return this.message(to, () => this.post(to, body, [{ name: file.name, data: file.bytes }], options.replyTo));
  }

  /** A message's body: its Markdown (plain words if the Markdown would not fit), its buttons, no pings, no embeds. */
  private body(text: RichText | undefined, buttons?: readonly (readonly Button[])[]): Record<string, unknown> {
    const content = text && markdownWithin(text, DISCORD_CAPABILITIES.messageChars);
    return {
      ...(content !== undefined ? { content } : {}),
      ...(buttons ? { components: actionRows(buttons) } : {}),
      allowed_mentions: NO_PINGS,
      flags: SUPPRESS_EMBEDS,
    };
  }

  private async post(to: ChatRef, body: Record<string, unknown>, files: RawFile[], replyTo: string | undefined): Promise<MessageRef> {
    const channel = channelIdOf(to);
    if (this.interactions.isInteraction(replyTo)) {
      const token = this.interactions.claim(replyTo!);
      if (token) {
        // The command's deferred reply becomes this message: flags other than the embeds' are not the reply's to change.
        const sent = (await this.rest.patch(Routes.webhookMessage(this.application(), token), {
          body: { ...body, flags: SUPPRESS_EMBEDS },
          files,
          auth: false,
        })) as APIMessage;
        this.interactions.answered(replyTo!, sent.id);
        return sentRef(to, sent.id, snowflakeOrder(sent.id));
      }
      replyTo = undefined;
    }
    const reference = replyTo !== undefined ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {};
    const sent = (await this.rest.post(Routes.channelMessages(channel), { body: { ...body, ...reference }, files })) as APIMessage;
    return sentRef(to, sent.id, snowflakeOrder(sent.id));
  }

  private patch(ref: MessageRef, body: Record<string, unknown>, files: RawFile[]): Promise<boolean> {
    const token = this.interactions.tokenOfReply(ref.messageId);
    return unlessGone(
      () =>
        token
          ? this.rest.patch(Routes.webhookMessage(this.application(), token, ref.messageId), { body, files, auth: false })
          : this.rest.patch(Routes.channelMessage(channelIdOf(ref), ref.messageId), { body, files }),
      (error) => GONE.has(discordCode(error) ?? 0),
    );
  }
}
