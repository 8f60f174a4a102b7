import type { WebClient } from '@slack/web-api';
import type { ChatCapabilities, ChatRef, EditOptions, MessageRef, Outbound, Picture, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import { AppOutbound, sentRef, unlessGone, type Upload } from '../serving/app-outbound.ts';
import { SLACK_CAPABILITIES, SLACK_FIT } from './capabilities.ts';
import { platformError, retryAfter } from './client.ts';
import { renderMrkdwn } from './format/mrkdwn.ts';
import { orderOfTs, SLACK } from './id.ts';
import { EMOJI_NAMES, slackMessage } from './presenter.ts';

/**
 * Slack lets a channel take about one message a second, with short bursts: three calls in any
 * three seconds keeps under it, whatever the mix of new messages and edits.
 */
export const SLACK_CHANNEL_LIMIT = { max: 3, windowMs: 3000 };

/** What a thread's status says while the agent works there, said again this often: Slack takes it away after two minutes. */
const WORKING = 'is working…';
const STATUS_AGAIN_MS = 90_000;

/** Slack's words for an app it does not let set a thread's status: its token lacks the scope, or the method is not the app's to call. */
const STATUS_REFUSED: ReadonlySet<string> = new Set(['missing_scope', 'not_allowed_token_type', 'access_denied', 'no_permission', 'unknown_method']);

/**
 * The bridge's Outbound over Slack's Web API: mrkdwn text, buttons as Block Kit, files by
 * files.uploadV2. Each channel's calls keep to its send budget (new messages ahead of progress
 * edits); a 429 pauses that channel for its Retry-After and the call is tried again.
 */
export class SlackOutbound extends AppOutbound implements Outbound {
  /** Pictures replaced: the message a first ref stands for now. */
  private readonly pictures = new Map<string, string>();

  /** Slack refused the thread status for good (see working). */
  private noStatus = false;
  /** The threads whose status says the agent is at work, each with the timer that says it again. */
  private readonly statuses = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly web: WebClient,
    /** The bot's name once Slack said it (auth.test): in a thread, commands are written `@name status`. */
    private readonly botName: () => string | undefined = () => undefined,
  ) {
    super(SLACK, SLACK_CAPABILITIES, SLACK_FIT, SLACK_CHANNEL_LIMIT, retryAfter);
  }

  send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.message(to, async () => {
      const message = slackMessage(text, options.buttons);
      const thread = to.thread;
      const sent = await this.web.chat.postMessage({
        channel: to.chat,
        text: message.text,
        ...(message.blocks.length ? { blocks: message.blocks } : {}),
        ...(thread ? { thread_ts: thread } : {}),
        unfurl_links: false,
        unfurl_media: false,
      });
      // The bot's message took the thread's status away: said again while the agent works there.
      if (thread && this.statuses.has(`${to.chat}/${thread}`)) void this.setStatus(to, thread, WORKING).catch(() => {});
      return sentRef(to, sent.ts!, orderOfTs(sent.ts!));
    });
  }

  edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    return this.edited(
      ref,
      async () => {
        const message = slackMessage(text, options.buttons);
        // Empty blocks clear the buttons an earlier version had.
        return unlessGone(
          () => this.web.chat.update({ channel: ref.chat, ts: ref.messageId, text: message.text, blocks: message.blocks as never[] }),
          (error) => platformError(error) === 'message_not_found',
        );
      },
      options.urgent,
    );
  }

  /**
   * The thread's status under its last message, "is working…", while the agent works. Slack
   * takes it away by itself two minutes after it was set, and at the bot's next message there:
   * it is set again before the one, and after the other. In threads only (a channel's or DM's
   * own messages have none). An app Slack does not let set it (a token without the scope) goes
   * on without it.
   */
  async working(to: ChatRef, working: boolean): Promise<void> {
    const thread = to.thread;
    if (!thread || this.noStatus) return;
    const key = `${to.chat}/${thread}`;
    clearInterval(this.statuses.get(key));
    this.statuses.delete(key);
    if (working) {
      const again = setInterval(() => void this.setStatus(to, thread, WORKING).catch(() => {}), STATUS_AGAIN_MS);
      again.unref();
      this.statuses.set(key, again);
    }
    await this.setStatus(to, thread, working ? WORKING : '');
  }

  private async setStatus(to: ChatRef, thread: string, status: string): Promise<void> {
    await this.web.assistant.threads.setStatus({ channel_id: to.chat, thread_ts: thread, status }).catch((error: unknown) => {
      if (!STATUS_REFUSED.has(platformError(error) ?? '')) throw error;
      this.noStatus = true;
      for (const again of this.statuses.values()) clearInterval(again);
      this.statuses.clear();
    });
  }

  async react(message: MessageRef, emoji: string): Promise<void> {
    const name = EMOJI_NAMES[emoji];
    if (!name) return;
    await this.reacted(message, () =>
      this.web.reactions.add({ channel: message.chat, timestamp: message.messageId, name }).catch((error: unknown) => {
        if (platformError(error) !== 'already_reacted') throw error;
      }),
    );
  }

  /**
   * A file cannot be replaced in its message on Slack: the new picture is shared anew and the one
   * it replaces deleted, so the chat shows one, the newest (the caller keeps the first ref, which
   * stands for the newest). An edit, so it waits behind new messages and a newer one replaces it.
   */
  editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    const key = `${ref.chat}:${ref.messageId}`;
    return this.edited(ref, async () => {
      const shown = this.pictures.get(key) ?? ref.messageId;
      const sent = await this.share(ref, picture.filename, Buffer.from(picture.png), picture.caption);
      this.pictures.set(key, sent.messageId);
      await this.web.chat.delete({ channel: ref.chat, ts: shown }).catch((error: unknown) => {
        // Deleted already (by someone): the new one is there anyway.
        if (platformError(error) !== 'message_not_found') throw error;
      });
      return true;
    });
  }

  /**
   * Its limits, and commands written as Slack takes them: `/bridge status`, its one slash
   * command; in a thread, where Slack offers no slash command, `@name status`.
   */
  override capabilities(to?: ChatRef): ChatCapabilities {
    return this.namedAs(to && to.thread ? this.botName() : undefined);
  }

  protected upload(to: ChatRef, file: Upload, caption: RichText | undefined): Promise<MessageRef> {
    return this.message(to, () => this.share(to, file.name, file.bytes, caption));
  }

  /** files.uploadV2: the bytes to Slack's upload URL, then shared in the chat (its thread) with the caption as the comment. */
  private async share(to: ChatRef, filename: string, bytes: Buffer, caption: RichText | undefined): Promise<MessageRef> {
    const thread = to.thread;
    const comment = caption ? renderMrkdwn(caption) : undefined;
    const file = { file: bytes, filename, ...(comment ? { initial_comment: comment } : {}) };
    const result = (await this.web.filesUploadV2(thread ? { ...file, channel_id: to.chat, thread_ts: thread } : { ...file, channel_id: to.chat })) as {
      files?: { files?: { id: string; shares?: Record<string, Record<string, { ts: string }[]>> }[] }[];
    };
    const uploaded = result.files?.[0]?.files?.[0];
    const shares = uploaded?.shares ?? {};
    const ts = [...Object.values(shares.public ?? {}), ...Object.values(shares.private ?? {})].flat()[0]?.ts;
    // Slack may share the file a moment later: its message is then known by the file's id only.
    return ts ? sentRef(to, ts, orderOfTs(ts)) : sentRef(to, uploaded?.id ?? filename);
  }
}
