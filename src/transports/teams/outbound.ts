import type { Activity } from 'botbuilder';
import { extname } from 'node:path';
import type { ChatCapabilities, ChatRef, EditOptions, MessageRef, Outbound, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/build.ts';
import { AppOutbound, checkSize, sentRef, unlessGone, type Upload } from '../serving/app-outbound.ts';
import { TEAMS_CAPABILITIES, TEAMS_FIT, TEAMS_CONVERSATION_LIMIT } from './capabilities.ts';
import { teamsMessage } from './cards.ts';
import type { TeamsConnector } from './connector.ts';
import { conversationOf, isPersonal, TEAMS } from './id.ts';
import { CONSENT_FILE_BYTES, consentAnswer, fileInfoCard, FileOffers, uploadFile } from './file-consent.ts';

/** What a file's name says it holds, for the few kinds Teams shows inline; the rest are bytes. */
const MIME: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
};

/**
 * The bridge's Outbound over the Bot Connector, through the CloudAdapter (each call with the
 * app's token): a new message is sent to its conversation (a reply chain's id sends it into
 * the chain), progress updates that activity in place. Each conversation's calls keep to its
 * send budget; a 429 pauses it for its Retry-After. A file goes inline in its message where it
 * fits, as a bot in a channel or group chat can share no other way (its capabilities keep files
 * small there); a larger one in a personal chat is offered through Teams' file consent.
 */
export class TeamsOutbound extends AppOutbound implements Outbound {
  private readonly offers = new FileOffers();

  constructor(private readonly connector: TeamsConnector) {
    super(TEAMS, TEAMS_CAPABILITIES, TEAMS_FIT, TEAMS_CONVERSATION_LIMIT, retryAfter);
  }

  protected override placeOf(to: ChatRef): string {
    return conversationOf(to);
  }

  send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.message(to, () => this.post(to, teamsMessage(text, options.buttons)));
  }

  edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    return this.edited(
      ref,
      () =>
        this.connector.within(ref, (context) =>
          // Deleted by someone: nothing to edit, and no error.
          unlessGone(
            () => context.updateActivity({ ...teamsMessage(text, options.buttons), id: ref.messageId }),
            (error) => statusOf(error) === 404,
          ),
        ),
      options.urgent,
    );
  }

  /** The bot learns its name from what people send it (the activity's recipient). */
  knowName(name: string | undefined): void {
    if (name) this.botName = name;
  }

  /**
   * Its limits, and commands written `@name status` where a message reaches the bot only by
   * mentioning it (a channel, a group chat); a personal chat takes `/status` as it is.
   */
  override capabilities(to?: ChatRef): ChatCapabilities {
    if (to && isPersonal(to)) return PERSONAL_CAPABILITIES;
    return this.namedAs(to && this.botName);
  }

  private botName: string | undefined;

  /**
   * The person's answer to a file's consent card (its invoke's value): allowed, the file goes to
   * their OneDrive and shows as a file card; declined, or no longer at hand, the chat is told.
   */
  async consented(to: ChatRef, value: unknown): Promise<void> {
    const answer = consentAnswer(value);
    if (!answer) return;
    const offer = this.offers.take(answer.offer);
    if (!offer) {
      await this.send(to, plain('📎 That file is no longer at hand (it was offered over 30 minutes ago, or before the bridge restarted): ask for it again.'));
      return;
    }
    if (!answer.accepted) {
      await this.send(to, plain(`📎 ${offer.filename} was not sent: declined.`));
      return;
    }
    try {
      await uploadFile(answer.upload, offer.bytes);
    } catch (error) {
      await this.send(to, plain(`📎 ${offer.filename} could not be put in your OneDrive: ${(error as Error).message}.`));
      return;
    }
    await this.message(to, () => this.post(to, { ...captioned(offer.caption), attachments: [fileInfoCard(answer.upload)] }));
  }

  /** Inline where it fits a message; past that, in a personal chat, offered through a consent card. */
  protected upload(to: ChatRef, file: Upload, caption: RichText | undefined): Promise<MessageRef> {
    const { name, bytes } = file;
    return this.message(to, async () => {
      if (bytes.length > TEAMS_CAPABILITIES.uploadBytes && isPersonal(to)) {
        checkSize(file, CONSENT_FILE_BYTES, 'a file may be offered in Teams');
        return this.post(to, { type: 'message', text: '', attachments: [this.offers.offer(name, bytes, caption)] });
      }
      const contentType = MIME[extname(name).toLowerCase()] ?? 'application/octet-stream';
      return this.post(to, {
        ...captioned(caption),
        attachments: [{ contentType, name, contentUrl: `data:${contentType};base64,${bytes.toString('base64')}` }],
      });
    });
  }

  private post(to: ChatRef, activity: Partial<Activity>): Promise<MessageRef> {
    return this.connector.within(to, async (context) => {
      const id = (await context.sendActivity(activity))?.id ?? '';
      // Teams' message ids in channels are the post's time in ms: they keep its order.
      return sentRef(to, id, /^\d+$/.test(id) ? Number(id) : undefined);
    });
  }
}

/** A file's message: its caption, or none. */
function captioned(caption: RichText | undefined): Partial<Activity> {
  return caption ? teamsMessage(caption) : { type: 'message', text: '' };
}

/** A personal chat: files past a message's size go through the person's consent, into their OneDrive. */
const PERSONAL_CAPABILITIES: ChatCapabilities = Object.freeze({ ...TEAMS_CAPABILITIES, uploadBytes: CONSENT_FILE_BYTES });

/** The HTTP status of a Bot Connector's refusal. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode ?? (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** Seconds a 429 asks to wait (its Retry-After), for the send budget. */
function retryAfter(error: unknown): number | undefined {
  if (statusOf(error) !== 429) return undefined;
  const headers = (error as { response?: { headers?: { get?: (name: string) => string | undefined } } }).response?.headers;
  const seconds = Number(headers?.get?.('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 1;
}
