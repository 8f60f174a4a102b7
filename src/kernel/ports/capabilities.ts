import type { Frame } from '../rich/edit.ts';
import type { RichText } from '../rich/model.ts';
import { framed, replaced } from '../rich/edit.ts';

/**
 * What one chat app can do, declared by its transport in one constant: the core asks this
 * instead of knowing any app's limits, so a chat is cut, paced and given files by its own app's
 * rules.
 */
export interface ChatCapabilities {
  /** Characters one message shows, as the app counts them once its markup is rendered. */
  messageChars: number;
  /** Characters a file's caption shows; 0: files take no caption. */
  captionChars: number;
  /** Bytes of the largest file the bridge may send there. */
  uploadBytes: number;
  /** Bytes of the largest image shown inline as a picture (larger ones go as documents). */
  photoBytes: number;
  /** Bytes a button carries back when pressed. */
  buttonPayloadBytes: number;
  /** Buttons one row holds. */
  buttonsPerRow: number;
  /** How often one message may be edited a minute: progress edits keep under it. */
  editsPerMinute: number;
  /** Whether a chat has threads, each its own session (a forum's topics, a channel's threads). */
  threads: boolean;
  /** Whether what a person typed and did not send is kept for them (the web chat's draft). */
  drafts: boolean;
  /** Whether the bridge can mark someone's message with an emoji. */
  reactions: boolean;
  /** Whether pictures show inline (an orchestration's graph). */
  pictures: boolean;
  /**
   * How people of the app write a command, before its word, where the app takes `/…` for its
   * own (`@bridgebot ` for `@bridgebot status`); absent: `/status`.
   */
  commandPrefix?: string;
}

/** A command named in a text (`/status`, `(/help spawn)`): its word. */
const COMMAND_WORD = /(?<=^|[\s`“(])\/([a-z][a-z_]*)\b/g;

/**
 * `/status`, `/help spawn` in a text, as the app's people write them (`@bridgebot status`):
 * with `commands`, only those words (`/tmp` is left as it is).
 */
export function asWritten(text: string, capabilities: Pick<ChatCapabilities, 'commandPrefix'>, commands?: ReadonlySet<string>): string {
  const prefix = capabilities.commandPrefix;
  return prefix ? text.replace(COMMAND_WORD, (whole, word: string) => writtenWord(whole, word, prefix, commands)) : text;
}

/**
 * Any text for a chat (the bridge's words and the agent's alike) with the bridge's own
 * `commands` in it written as the app's people write them: `/status` where that does nothing
 * would send them nowhere.
 */
export function commandsAsWritten(text: RichText, capabilities: Pick<ChatCapabilities, 'commandPrefix'>, commands: ReadonlySet<string>): RichText {
  const prefix = capabilities.commandPrefix;
  if (!prefix || !commands.size) return text;
  return replaced(text, COMMAND_WORD, ([whole, word]) => writtenWord(whole, word!, prefix, commands));
}

function writtenWord(whole: string, word: string, prefix: string, commands: ReadonlySet<string> | undefined): string {
  return !commands || commands.has(word) ? `${prefix}${word}` : whole;
}

/** How text fits one chat's messages: cut by its app's rules. */
export interface MessageFit {
  /**
   * The messages `text` takes, each within the app's limit (cut between blocks, then lines,
   * then words): `header` opens the first and `footer` closes the last.
   */
  split(text: RichText, frame?: Frame): RichText[];
  /** The opening of a long text sent as a document, for its caption; none where the app shows none. */
  preview(text: RichText): RichText | undefined;
}

/** The payload every transport's buttons carry: the core keeps its buttons' data within it. */
export const BUTTON_PAYLOAD_BYTES = 64;

/**
 * What a chat of the bridge's own can do (a terminal, a page): no message limit, files copied
 * under the data directory (bounded, as a directory's archive must be), pictures shown.
 */
export const OWN_CHAT_CAPABILITIES: ChatCapabilities = Object.freeze({
  messageChars: Number.POSITIVE_INFINITY,
  captionChars: Number.POSITIVE_INFINITY,
  uploadBytes: 100 * 1024 * 1024,
  photoBytes: 10 * 1024 * 1024,
  buttonPayloadBytes: 1024,
  buttonsPerRow: 8,
  editsPerMinute: 600,
  threads: false,
  drafts: false,
  reactions: false,
  pictures: true,
});

/** A chat with no message limit (a terminal, a page): one message, however long, and no preview (the document is at hand). */
export const WHOLE_MESSAGE_FIT: MessageFit = Object.freeze({
  split: (text: RichText, frame: Frame = {}) => framed([text], frame),
  preview: () => undefined,
});
