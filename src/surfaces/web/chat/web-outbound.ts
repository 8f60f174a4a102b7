import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import {
  chatKey,
  type ChatRef,
  type EditOptions,
  type MessageRef,
  type Outbound,
  type OutgoingFile,
  type Picture,
  type RichText,
  type SendOptions,
} from '../../../kernel/ports/chat.ts';
import type { Low } from 'lowdb';
import { plain } from '../../../kernel/rich/index.ts';
import { OWN_CHAT_CAPABILITIES, WHOLE_MESSAGE_FIT, type ChatCapabilities, type MessageFit } from '../../../kernel/ports/capabilities.ts';
import { openJsonStore } from '../../../kernel/store/json-store.ts';
import { spansOf, type WebMessage } from './web-message.ts';

/** What a web chat can do: what the terminal can, and the page keeps a draft. */
export const WEB_CAPABILITIES: ChatCapabilities = Object.freeze({ ...OWN_CHAT_CAPABILITIES, drafts: true });

/** The messages a web chat keeps for a page that opens (or opens again). */
const KEPT_MESSAGES = 300;

/** A file the bridge sent to a web chat: on disk under the data directory, fetched by its chat's person only. */
export interface WebFile {
  chat: string;
  path: string;
  name: string;
}

interface Kept {
  chats: Record<string, WebMessage[]>;
  files: Record<string, WebFile>;
}

/**
 * The web pages' chats as an Outbound: each person's chat keeps its last messages (what a
 * page shows when it opens, across restarts too, in `<dataDir>/web/chats.json`) and tells the
 * pages watching it of every new or edited one. Files sent are copied under
 * `<dataDir>/web/files`, fetched by id, and removed with the message that carried them.
 */
export class WebOutbound implements Outbound {
  private readonly chats: Map<string, WebMessage[]>;
  private readonly files: Map<string, WebFile>;
  private readonly watchers = new Set<(chat: string, message: WebMessage) => void>();
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Low<Kept>,
    private readonly filesDir: string,
  ) {
    this.chats = new Map(Object.entries(db.data.chats));
    this.files = new Map(Object.entries(db.data.files));
  }

  /** The web chats kept in `dir` (`<dataDir>/web`). */
  static async open(dir: string): Promise<WebOutbound> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new WebOutbound(await openJsonStore<Kept>(join(dir, 'chats.json'), { chats: {}, files: {} }), join(dir, 'files'));
  }

  /** Resolves once what was kept so far is on disk. */
  async flush(): Promise<void> {
    await this.writing;
  }

  /** Calls `listener` with each message sent, edited or written into a chat; returns the unsubscribe. */
  watch(listener: (chat: string, message: WebMessage) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** The chat's kept messages, oldest first. */
  history(to: ChatRef): WebMessage[] {
    return [...(this.chats.get(chatKey(to)) ?? [])];
  }

  file(id: string): WebFile | undefined {
    return this.files.get(id);
  }

  /** What the person wrote, kept with the chat so every page of theirs shows it. */
  written(to: ChatRef, text: string): WebMessage {
    return this.add(to, { id: nanoid(10), from: 'you', spans: [{ text }], at: Date.now() });
  }

  async send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.fromBridge(to, text, options);
  }

  async edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    const key = chatKey(ref);
    const kept = this.chats.get(key)?.find((m) => m.id === ref.messageId);
    if (!kept) return false;
    kept.spans = spansOf(text);
    if (options.buttons !== undefined) {
      if (options.buttons.length) kept.buttons = options.buttons;
      else delete kept.buttons;
    }
    kept.edited = Date.now();
    this.tell(key, kept);
    return true;
  }

  async sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options: SendOptions = {}): Promise<MessageRef> {
    const id = await this.place(to, document.filename, (path) => writeFile(path, document.content, { mode: 0o600 }));
    return this.fromBridge(to, document.caption, options, { id, name: document.filename, photo: false });
  }

  async sendFile(to: ChatRef, file: OutgoingFile, options: SendOptions = {}): Promise<MessageRef> {
    const name = file.filename ?? basename(file.path);
    const source = () => (file.content ? Readable.from(file.content()) : createReadStream(file.path));
    const id = await this.place(to, name, (path) => pipeline(source(), createWriteStream(path, { mode: 0o600 })));
    return this.fromBridge(to, file.caption, options, { id, name, photo: file.as === 'photo' });
  }

  /** A picture the bridge drew: a photo message, its PNG kept with the chat's files. */
  async sendPicture(to: ChatRef, picture: Picture, options: SendOptions = {}): Promise<MessageRef> {
    const id = await this.place(to, picture.filename, (path) => writeFile(path, picture.png, { mode: 0o600 }));
    return this.fromBridge(to, picture.caption, options, { id, name: picture.filename, photo: true });
  }

  /** The message shows the new picture (a new file, so no page keeps the old one cached), and the old file goes. */
  async editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    const key = chatKey(ref);
    const kept = this.chats.get(key)?.find((m) => m.id === ref.messageId);
    if (!kept) return false;
    const id = await this.place(ref, picture.filename, (path) => writeFile(path, picture.png, { mode: 0o600 }));
    if (kept.file) await this.dropFile(kept.file.id);
    kept.file = { id, name: picture.filename, photo: true };
    kept.spans = spansOf(picture.caption ?? plain(''));
    kept.edited = Date.now();
    this.tell(key, kept);
    return true;
  }

  capabilities(): ChatCapabilities {
    return WEB_CAPABILITIES;
  }

  fit(): MessageFit {
    return WHOLE_MESSAGE_FIT;
  }

  /** Keeps a file the chat is sent under the files' folder (`write` puts it at the path given), and returns its id. */
  private async place(to: ChatRef, name: string, write: (path: string) => Promise<unknown>): Promise<string> {
    await mkdir(this.filesDir, { recursive: true, mode: 0o700 });
    const id = nanoid(16);
    const path = join(this.filesDir, `${id}-${name.replace(/[^\w.-]+/g, '_').slice(-80)}`);
    this.files.set(id, { chat: chatKey(to), path, name });
    await write(path);
    return id;
  }

  private fromBridge(to: ChatRef, text: RichText | undefined, options: SendOptions, file?: WebMessage['file']): MessageRef {
    const message = this.add(to, {
      id: nanoid(10),
      from: 'bridge',
      spans: spansOf(text ?? plain('')),
      ...(file ? { file } : {}),
      ...(options.buttons?.length ? { buttons: options.buttons } : {}),
      ...(options.replyTo && !file ? { replyTo: options.replyTo } : {}),
      at: Date.now(),
    });
    return { ...to, messageId: message.id };
  }

  private add(to: ChatRef, message: WebMessage): WebMessage {
    const key = chatKey(to);
    const kept = this.chats.get(key) ?? [];
    kept.push(message);
    // What leaves the history takes its file with it.
    for (const gone of kept.splice(0, Math.max(0, kept.length - KEPT_MESSAGES))) if (gone.file) void this.dropFile(gone.file.id);
    this.chats.set(key, kept);
    this.tell(key, message);
    return message;
  }

  private tell(key: string, message: WebMessage): void {
    for (const watcher of this.watchers) watcher(key, message);
    this.save();
  }

  private async dropFile(id: string): Promise<void> {
    const file = this.files.get(id);
    this.files.delete(id);
    if (file) await rm(file.path, { force: true });
  }

  /** Every change is written; writes made while one is on its way share the next (lowdb's writer keeps only the newest). */
  private save(): void {
    this.db.data = { chats: Object.fromEntries(this.chats), files: Object.fromEntries(this.files) };
    this.writing = this.db.write().catch(() => {});
  }
}
