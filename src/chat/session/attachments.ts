import { basename, relative } from 'node:path';
import { DownloadError, INBOX_DIR, type Inbox, type SavedFile } from '../../engine/files/inbox.ts';
import type { Transcriber } from '../../engine/files/transcriber.ts';
import { plain } from '../../kernel/rich/index.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { chatKey, type Attachment, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import type { ChatSession } from './chat-session.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';

/** A prompt on its way to a turn: the words, and files already saved for it. */
export type Prompt = IncomingMessage & { files?: SavedFile[] };

export interface AttachmentOptions {
  /** Each transport's inbox, by id; a transport not here (the console): files cannot be received. */
  inboxes: ReadonlyMap<string, Inbox>;
  transcriber: Transcriber | undefined;
  out: Outbound;
  /** Runs a prompt as if the user had typed it (budget, queue limit and all). */
  submit: (chat: ChatSession, prompt: Prompt) => Promise<void>;
  log: Log;
  /** A file without words waits for the user's next message; after this long, the chat is reminded. */
  reminderMs?: number;
}

/** The parts of an album arrive as separate messages: one prompt once none came for this long. */
const ALBUM_QUIET_MS = 1000;

interface Album {
  chat: ChatSession;
  albumId: string;
  messages: IncomingMessage[];
  timer: NodeJS.Timeout;
}

/**
 * What happens to files people send: saved in the chat's inbox, voice transcribed, and
 * handed to the agent with the words that came with them. A file sent alone waits for the
 * same user's next message; an album makes one prompt. Nothing is dropped silently: every
 * file that cannot be fetched or heard is answered with why.
 */
export class Attachments {
  /** The reminders of files waiting for words (the files themselves wait in the chat's record, across restarts). */
  private readonly reminders = new Map<string, NodeJS.Timeout>();
  private readonly albums = new Map<string, Album>();

  constructor(private readonly options: AttachmentOptions) {}

  /** A message with files. Returns when they are saved (so the user's next message finds them). */
  async receive(chat: ChatSession, message: IncomingMessage): Promise<void> {
    if (!message.albumId) return this.handle(chat, [message]);
    // Kept in the chat's record while it gathers: the transport counts it handed over now.
    await chat.messages.gatherAlbumPart(message.albumId, message);
    this.gather(chat, message.albumId, message);
  }

  /**
   * Albums a restart cut short while they gathered, handled now. One whose prompt was already
   * queued (a kill between that and noting it) is pending in the chat: it is not queued again.
   */
  async recover(chats: readonly ChatSession[]): Promise<void> {
    for (const chat of chats) {
      for (const [albumId, parts] of Object.entries(chat.record.gatheringAlbums ?? {})) {
        const first = parts[0];
        if (!first || (chat.record.pending ?? []).some((p) => p.messageId === first.messageId)) {
          await chat.messages.albumHandled(albumId);
          continue;
        }
        for (const part of parts) this.gather(chat, albumId, part);
        await this.flushAlbum(`${chatKey(chat.address)}:${albumId}`);
      }
    }
  }

  private gather(chat: ChatSession, albumId: string, message: IncomingMessage): void {
    const key = `${chatKey(chat.address)}:${albumId}`;
    const album = this.albums.get(key);
    if (album) {
      album.messages.push(message);
      album.timer.refresh();
      return;
    }
    const timer = setTimeout(() => void this.flushAlbum(key), ALBUM_QUIET_MS);
    this.albums.set(key, { chat, albumId, messages: [message], timer });
  }

  /**
   * The files a user's next message takes with it: those waiting for words, after any album
   * of theirs still gathering.
   */
  async take(chat: ChatSession, userId: string): Promise<SavedFile[]> {
    const prefix = `${chatKey(chat.address)}:`;
    for (const [key, album] of this.albums) {
      if (key.startsWith(prefix) && album.messages[0]!.user.id === userId) await this.flushAlbum(key);
    }
    const key = waitingKey(chat, userId);
    clearTimeout(this.reminders.get(key));
    this.reminders.delete(key);
    return chat.messages.takeFiles(userId);
  }

  /** Saves a message's files for whoever asks (a /spawn replying to a file); refusals are sentences. */
  async save(chat: ChatSession, attachments: readonly Attachment[]): Promise<SavedFile[]> {
    const inbox = this.options.inboxes.get(chat.address.transport);
    if (!inbox) throw new DownloadError(attachments[0]!, 'files cannot be received here');
    const saved: SavedFile[] = [];
    for (const attachment of attachments) saved.push(await inbox.save(chat.record.workdir, attachment));
    return saved;
  }

  close(): void {
    for (const reminder of this.reminders.values()) clearTimeout(reminder);
    for (const album of this.albums.values()) clearTimeout(album.timer);
  }

  /** Handles an album once: it leaves the gathering albums first, so its own prompt does not wait for it. */
  private async flushAlbum(key: string): Promise<void> {
    const album = this.albums.get(key);
    if (!album) return;
    this.albums.delete(key);
    clearTimeout(album.timer);
    await this.handle(album.chat, album.messages).catch((error: Error) =>
      this.options.log.error({ chat: chatKey(album.chat.address), err: error }, 'handling an album failed'),
    );
    await album.chat.messages.albumHandled(album.albumId);
  }

  private async handle(chat: ChatSession, messages: IncomingMessage[]): Promise<void> {
    const first = messages[0]!;
    const reply = (text: string) =>
      warnIfFails(this.options.out.send(chat.address, plain(text), { replyTo: first.messageId }), this.options.log, 'a file notice', {
        chat: chatKey(chat.address),
      });
    const inbox = this.options.inboxes.get(chat.address.transport);
    if (!inbox) {
      await reply('Files cannot be received here.');
      return;
    }
    const saved: SavedFile[] = [];
    for (const attachment of messages.flatMap((m) => m.attachments ?? [])) {
      try {
        saved.push(await inbox.save(chat.record.workdir, attachment));
      } catch (error) {
        if (!(error instanceof DownloadError)) throw error;
        await reply(`⚠️ ${describeAttachment(attachment)} could not be received: ${error.message}. Nothing of it was kept; ${error.advice}.`);
      }
    }
    const words = messages.map((m) => m.text.trim()).filter(Boolean);
    const heard = await this.transcribeAll(chat, saved, reply);
    const text = [...words, ...heard.transcripts].join('\n\n');
    if (text) {
      await this.options.submit(chat, { ...first, text, files: saved });
      return;
    }
    if (saved.length) await this.hold(chat, first.user.id, saved, heard.explained, first.messageId);
  }

  /** Voice and audio as text, each transcript shown to the user; a recording that cannot be heard is said so. */
  private async transcribeAll(
    chat: ChatSession,
    saved: SavedFile[],
    reply: (text: string) => Promise<unknown>,
  ): Promise<{ transcripts: string[]; explained: boolean }> {
    const recordings = saved.filter((file) => file.kind === 'voice' || file.kind === 'audio');
    if (!recordings.length) return { transcripts: [], explained: false };
    const where = (file: SavedFile) => relative(chat.record.workdir, file.path);
    const { transcriber } = this.options;
    if (!transcriber) {
      await reply(
        `🎙 Voice messages are not transcribed here: the operator can set BRIDGE_TRANSCRIBE_URL to an OpenAI-compatible speech-to-text API. The recording is saved as ${recordings.map(where).join(', ')}; your next message goes to the agent with it.`,
      );
      return { transcripts: [], explained: true };
    }
    const transcripts: string[] = [];
    let explained = false;
    for (const file of recordings) {
      try {
        const text = await transcriber.transcribe(file.path, file.mimeType);
        if (!text) throw new Error('it heard no words');
        await reply(`🎙 “${truncate(text, 3500)}”`);
        transcripts.push(text);
      } catch (error) {
        explained = true;
        await reply(
          `🎙 The recording could not be transcribed: ${(error as Error).message}. It is saved as ${where(file)}; your next message goes to the agent with it.`,
        );
      }
    }
    return { transcripts, explained };
  }

  /** Files without words wait for the user's next message; the chat is reminded once if it does not come. */
  private async hold(chat: ChatSession, userId: string, files: SavedFile[], explained: boolean, messageId: string | undefined): Promise<void> {
    await chat.messages.holdFiles(userId, files, messageId);
    const key = waitingKey(chat, userId);
    clearTimeout(this.reminders.get(key));
    this.reminders.delete(key);
    if (explained) return;
    const reminder = setTimeout(() => {
      this.reminders.delete(key);
      const names = (chat.record.waitingFiles?.[userId] ?? []).map((file) => basename(file.path));
      if (!names.length) return;
      const text = `📎 ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} saved in ${INBOX_DIR}/. Your next message goes to the agent with ${names.length === 1 ? 'it' : 'them'}; say what to do.`;
      void warnIfFails(this.options.out.send(chat.address, plain(text)), this.options.log, 'a file reminder', { chat: chatKey(chat.address) });
    }, this.options.reminderMs ?? 60_000);
    reminder.unref();
    this.reminders.set(key, reminder);
  }
}

function waitingKey(chat: ChatSession, userId: string): string {
  return `${chatKey(chat.address)}:${userId}`;
}

function describeAttachment(attachment: Attachment): string {
  if (attachment.fileName) return `“${attachment.fileName}”`;
  const words: Record<Attachment['kind'], string> = {
    document: 'The document',
    photo: 'The photo',
    voice: 'The voice message',
    audio: 'The audio',
    video: 'The video',
  };
  return attachment.recorded ? 'The video message' : (words[attachment.kind] ?? 'The file');
}
