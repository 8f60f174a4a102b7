import { COMMANDS } from '../../../src/chat/commands/index.ts';
import { asWritten } from '../../../src/kernel/ports/capabilities.ts';

/**
 * A chat app's twin as the transport contract suite drives it: people write, send files,
 * run commands and press buttons the way that app lets them, and read what the bot shows. One
 * implementation per transport, over its twin (the fake Bot API, Slack, Discord); the suite
 * is written once against this.
 */
export interface ChatAppTwin {
  /** The transport's id: what BRIDGE_TRANSPORTS and `transport:id` ids name. */
  readonly transport: string;
  /** The bridge's settings pointing it at this twin. */
  readonly env: Record<string, string>;
  /**
   * The web server's address the app's service was told to post to, where the twin chose it
   * (Teams: its messaging endpoint); the bridge must listen there. Others (Mattermost: its
   * buttons' URL is in each post) work with any BRIDGE_WEB_ADDR.
   */
  readonly postsTo?: string;
  /** The person who owns the bridge, as BRIDGE_ALLOWED_USERS holds them. */
  readonly owner: string;
  /** Characters one message of the app holds, where past the 2,000–4,096 of most: an answer of 9,000 is then one message. */
  readonly messageChars?: number;
  /** The owner's private chat with the bot. */
  direct(): ChatOnApp;
  /**
   * Someone else of the app, by the name they write under: their id as allowlists hold it
   * (`slack:U…`). They are in every group made after; name them in the bridge's settings by
   * adding them before it starts.
   */
  addPerson(name: string): string;
  /** A fresh group (a channel) the bot is in, `n`th of the test: messages there address the bot as the app needs. */
  group(n: number): GroupOnApp;
  /** The calls the bridge made to the app's API so far, oldest first, as the twin took them (polling and keep-alives left out): what the benchmark counts. */
  calls(): readonly TwinCall[];
  /** Resolves once the bridge is connected and listening (a socket the twin pushes events into); none: its events wait for the bridge anyway. */
  connected?(): Promise<void>;
  stop(): Promise<void>;
}

/** One call of the bridge to a chat app, as its twin recorded it. */
export interface TwinCall {
  method: string;
  /** The chat (channel) it was about, as the app names it. */
  chat?: string;
  /** The text it sent, where it sent one. */
  text?: string;
  /** When the twin took it (ms since the epoch). */
  at: number;
}

/** A group as the owner sees and uses it, its threads, and the same group used by someone else. */
export interface GroupOnApp extends ChatOnApp {
  thread(n: number): ChatOnApp;
  /** The group as `person` (from `addPerson`) writes, runs commands and presses in it; the bot's messages are the same. */
  as(person: string): ChatOnApp;
}

/** One chat (or thread) as the owner sees and uses it. */
export interface ChatOnApp {
  /** Its id as the app names it in calls (a thread: its channel's). */
  readonly id: string;
  say(text: string): Promise<void>;
  /** A file, with a caption when given. */
  sendFile(file: { name: string; bytes: Buffer; caption?: string }): Promise<void>;
  /** A command the way this app has people run it (`/status`, `/bridge status`, an application command). */
  command(name: string, args?: string): Promise<void>;
  /** A text of the bridge's as this chat shows it: its commands written as the app's people write them (`/status` → `/bridge status`). */
  written(text: string): string;
  /** The bot's messages here as they show now, oldest first. */
  shown(): Promise<ShownMessage[]>;
  /** Waits for the bot's first message here whose text shows `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<ShownMessage>;
  /** Presses the button whose label matches on that message, as the owner. */
  press(message: ShownMessage, label: RegExp): Promise<void>;
}

export interface ShownMessage {
  readonly id: string;
  /** The text as a reader sees it: markup rendered away. */
  readonly text: string;
  /** Its buttons' labels, row after row. */
  readonly buttons: readonly string[];
  /** Files it carries. */
  readonly files: readonly { name: string; bytes: Buffer }[];
  /** How many times it was edited. */
  readonly edits: number;
}

const COMMAND_NAMES = new Set(COMMANDS.map((command) => command.name));

/** How the bridge's texts show in a chat whose app writes its commands `prefix…` (`@bridgebot status`); none: `/status` as it is. */
export function writtenWith(prefix?: string): (text: string) => string {
  return (text) => asWritten(text, prefix ? { commandPrefix: prefix } : {}, COMMAND_NAMES);
}
