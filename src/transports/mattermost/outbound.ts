import type { ChatCapabilities, ChatRef, EditOptions, MessageRef, Outbound, Picture, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import { AppOutbound, checkSize, emojiNames, markdownWithin, sentRef, unlessGone, type Upload } from '../serving/app-outbound.ts';
import type { SignedButtons } from './buttons.ts';
import { MATTERMOST_CAPABILITIES, MATTERMOST_FIT, MATTERMOST_CHANNEL_LIMIT } from './capabilities.ts';
import { retryAfter, statusOf, type MattermostApi } from './client.ts';
import { MATTERMOST } from './id.ts';

/** The emoji the bridge reacts with, by Mattermost's names. */
const EMOJI_NAMES = emojiNames();

interface Post {
  id: string;
  create_at?: number;
}

/**
 * The bridge's Outbound over Mattermost's REST API: Markdown posts (a thread's under its
 * `root_id`), progress as edits of one post (`PUT /posts/{id}/patch`), buttons as interactive
 * message attachments, files uploaded to the channel and posted. Each channel's calls keep to
 * its send budget; a 429 pauses that channel for the seconds its headers ask.
 */
export class MattermostOutbound extends AppOutbound implements Outbound {
  constructor(
    private readonly api: MattermostApi,
    private readonly buttons: SignedButtons,
    /** The bot's user id, known once connected: reactions are its own. */
    private readonly botId: () => string,
    /** The bot's username, known once connected: commands are written with it. */
    private readonly botName: () => string | undefined = () => undefined,
  ) {
    super(MATTERMOST, MATTERMOST_CAPABILITIES, MATTERMOST_FIT, MATTERMOST_CHANNEL_LIMIT, retryAfter);
  }

  send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.message(to, () => this.post(to, message(text), options, []));
  }

  edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    return this.edited(
      ref,
      // No buttons given: the ones it had go (an empty list clears them).
      () => this.patch(ref, { message: message(text), props: { attachments: this.buttons.attachments(ref, options.buttons) } }),
      options.urgent,
    );
  }

  async react(target: MessageRef, emoji: string): Promise<void> {
    const name = EMOJI_NAMES[emoji];
    if (!name) return;
    await this.reacted(target, () => this.api.call('post', '/reactions', { user_id: this.botId(), post_id: target.messageId, emoji_name: name }));
  }

  /** A post's files cannot change: the new picture is uploaded and takes the place of the old in the same post. */
  editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    return this.edited(ref, async () => {
      const fileId = await this.uploadOnly(ref, picture.filename, Buffer.from(picture.png));
      return this.patch(ref, { file_ids: [fileId], message: picture.caption ? message(picture.caption) : '' });
    });
  }

  /** Its limits, and commands written `@bridgebot status`, by the bot's name once it is known. */
  override capabilities(): ChatCapabilities {
    return this.namedAs(this.botName());
  }

  protected async upload(to: ChatRef, file: Upload, caption: RichText | undefined, options: SendOptions): Promise<MessageRef> {
    checkSize(file, MATTERMOST_CAPABILITIES.uploadBytes, 'Mattermost takes by default');
    return this.message(to, async () => {
      const fileId = await this.uploadOnly(to, file.name, file.bytes);
      return this.post(to, caption ? message(caption) : '', options, [fileId]);
    });
  }

  /** The file, uploaded to the channel: its id, for a post to carry. */
  private async uploadOnly(to: ChatRef, name: string, bytes: Buffer): Promise<string> {
    const form = new FormData();
    form.append('channel_id', to.chat);
    form.append('files', new Blob([bytes]), name);
    const uploaded = await this.api.call<{ file_infos: { id: string }[] }>('post', '/files', form);
    return uploaded.file_infos[0]!.id;
  }

  private async post(to: ChatRef, text: string, options: SendOptions, fileIds: string[]): Promise<MessageRef> {
    const attachments = this.buttons.attachments(to, options.buttons);
    const root = to.thread;
    const sent = await this.api.call<Post>('post', '/posts', {
      channel_id: to.chat,
      message: text,
      ...(root ? { root_id: root } : {}),
      ...(fileIds.length ? { file_ids: fileIds } : {}),
      ...(attachments.length ? { props: { attachments } } : {}),
    });
    // In the order Mattermost made it (its `create_at`, ms).
    return sentRef(to, sent.id, sent.create_at || undefined);
  }

  /** A post changed; a deleted one (404) or one the bot may no longer edit (403) is no error, only gone. */
  private patch(ref: MessageRef, patch: Record<string, unknown>): Promise<boolean> {
    return unlessGone(
      () => this.api.call('put', `/posts/${ref.messageId}/patch`, patch),
      (error) => statusOf(error) === 404 || statusOf(error) === 403,
    );
  }
}

/** A post's Markdown; plain words when the Markdown would not fit. */
function message(text: RichText): string {
  return markdownWithin(text, MATTERMOST_CAPABILITIES.messageChars);
}
