import type { SavedFile } from '../../engine/files/inbox.ts';
import type { IncomingMessage } from '../../kernel/ports/chat.ts';
import type { BegunCommand, ChatRecord, PendingMessage } from '../../kernel/store/chat-store.ts';

/** How many handled message ids a chat remembers: far more than a transport gives again after a restart. */
const TAKEN_KEPT = 200;

/**
 * What a chat has taken and still owes, kept in its record so a restart loses none of it:
 * the messages not yet answered (pending, with what their turns did and the messages steered
 * into them), the ids of messages handled (a transport giving one again is not handled twice),
 * commands begun, albums gathering, and files waiting for their sender's words.
 */
export class ChatMessages {
  constructor(
    private readonly record: () => ChatRecord,
    private readonly save: (patch: Partial<ChatRecord>) => Promise<void>,
  ) {}

  async addPending(message: PendingMessage): Promise<void> {
    await this.save({ pending: [...(this.record().pending ?? []), message] });
  }

  /** Notes what a pending message's turn did (see PendingMessage); a message no longer pending is left alone. */
  async updatePending(id: string, patch: Partial<Omit<PendingMessage, 'id'>>): Promise<void> {
    const pending = this.record().pending ?? [];
    if (!pending.some((p) => p.id === id)) return;
    await this.save({ pending: pending.map((p) => (p.id === id ? { ...p, ...patch } : p)) });
  }

  /** The message is answered (or named as lost): it leaves the pending ones, and is remembered as taken, in one write with `also`. */
  async removePending(id: string, also: Partial<ChatRecord> = {}): Promise<void> {
    const pending = this.record().pending ?? [];
    const messageId = pending.find((p) => p.id === id)?.messageId;
    await this.save({ ...also, pending: pending.filter((p) => p.id !== id), ...(messageId ? { taken: this.takenWith(messageId) } : {}) });
  }

  /** Whether the bridge has taken this message already (a transport giving it again after a restart). */
  hasTaken(messageId: string): boolean {
    return (this.record().taken ?? []).includes(messageId) || (this.record().pending ?? []).some((p) => p.messageId === messageId);
  }

  /**
   * A message that went into the turn at work (steered, or the answer to the agent's question):
   * noted with the turn, so a restart before the CLI took it can still tell the agent, and
   * remembered as taken.
   */
  async noteSteered(turnId: string, text: string, messageId: string | undefined): Promise<void> {
    const pending = this.record().pending ?? [];
    await this.noteTaken(messageId, {
      pending: pending.map((entry) => (entry.id === turnId ? { ...entry, steered: [...(entry.steered ?? []), text] } : entry)),
    });
  }

  /**
   * Messages steered into turn `from` that its CLI took as a turn of its own: pending as that
   * turn (`entry`) right behind it, and no longer among `from`'s steered ones, in one write (a
   * restart resumes each once).
   */
  async carryOver(from: string, entry: PendingMessage, texts: string[]): Promise<void> {
    const pending = (this.record().pending ?? []).map((p) => (p.id === from && p.steered ? { ...p, steered: without(p.steered, texts) } : p));
    const at = pending.findIndex((p) => p.id === from);
    pending.splice(at < 0 ? pending.length : at + 1, 0, entry);
    await this.save({ pending });
  }

  /** Remembers a message as handled (a command about to run, a steer, files kept for words), with whatever else changes with it. */
  async noteTaken(messageId: string | undefined, patch: Partial<ChatRecord> = {}): Promise<void> {
    await this.save({ ...patch, ...(messageId ? { taken: this.takenWith(messageId) } : {}) });
  }

  /** An album's part, taken and kept (across restarts) until its album is handled. */
  async gatherAlbumPart(albumId: string, message: IncomingMessage): Promise<void> {
    const albums = this.record().gatheringAlbums ?? {};
    await this.noteTaken(message.messageId, { gatheringAlbums: { ...albums, [albumId]: [...(albums[albumId] ?? []), message] } });
  }

  /** The album is handled (its prompt queued, or its files kept for words). */
  async albumHandled(albumId: string): Promise<void> {
    const { [albumId]: _done, ...rest } = this.record().gatheringAlbums ?? {};
    await this.save({ gatheringAlbums: rest });
  }

  /**
   * A command is about to run: taken, and noted as begun until `commandDone`; `replayable`, with
   * the whole message, to be carried out again if a restart cuts it short. Carried out again,
   * it is noted once.
   */
  async commandBegun(message: Pick<IncomingMessage, 'messageId' | 'text'>, replayable = false): Promise<void> {
    const { messageId, text } = message;
    const begun = this.record().commandsCut ?? [];
    if (messageId !== undefined && begun.some((c) => c.messageId === messageId && c.text === text)) return;
    const entry: BegunCommand = { ...(messageId ? { messageId } : {}), text, ...(replayable ? { message: message as IncomingMessage } : {}) };
    await this.noteTaken(messageId, { commandsCut: [...begun, entry] });
  }

  /**
   * A command a restart cut short is carried out again: counted first (so a crash it causes
   * cannot loop), and the files it had taken waiting again for it, in one write.
   */
  async commandReplayed(command: BegunCommand): Promise<void> {
    const begun = this.record().commandsCut ?? [];
    const userId = command.message?.user.id;
    const waiting = this.record().waitingFiles ?? {};
    const files =
      command.files?.length && userId !== undefined ? { waitingFiles: { ...waiting, [userId]: [...command.files, ...(waiting[userId] ?? [])] } } : {};
    const { files: _given, ...rest } = command;
    await this.save({ commandsCut: begun.map((c) => (c === command || sameCommand(c, command) ? { ...rest, replays: (c.replays ?? 0) + 1 } : c)), ...files });
  }

  async commandDone(messageId: string | undefined, text: string): Promise<void> {
    const begun = this.record().commandsCut ?? [];
    const index = begun.findIndex((c) => sameCommand(c, { messageId, text }));
    if (index >= 0) await this.save({ commandsCut: begun.filter((_, i) => i !== index) });
  }

  private takenWith(messageId: string): string[] {
    return [...(this.record().taken ?? []).filter((id) => id !== messageId), messageId].slice(-TAKEN_KEPT);
  }

  /** Files `userId` sent without words (in message `messageId`), kept (across restarts) for their next message. */
  async holdFiles(userId: string, files: SavedFile[], messageId: string | undefined): Promise<void> {
    const waiting = this.record().waitingFiles ?? {};
    await this.noteTaken(messageId, { waitingFiles: { ...waiting, [userId]: [...(waiting[userId] ?? []), ...files] } });
  }

  /**
   * The files waiting for `userId`'s words, which their message now takes. A command of theirs
   * that could be carried out again keeps them, in the same write, for that.
   */
  async takeFiles(userId: string): Promise<SavedFile[]> {
    const { [userId]: files = [], ...others } = this.record().waitingFiles ?? {};
    if (!files.length) return files;
    const begun = this.record().commandsCut ?? [];
    const taker = begun.findLast((c) => c.message?.user.id === userId);
    const kept = taker ? { commandsCut: begun.map((c) => (c === taker ? { ...c, files: [...(c.files ?? []), ...files] } : c)) } : {};
    await this.save({ waitingFiles: others, ...kept });
    return files;
  }
}

function sameCommand(a: Pick<BegunCommand, 'messageId' | 'text'>, b: Pick<BegunCommand, 'messageId' | 'text'>): boolean {
  return a.messageId === b.messageId && a.text === b.text;
}

/** `list` without one occurrence of each of `gone`. */
function without(list: string[], gone: string[]): string[] {
  const rest = [...list];
  for (const item of gone) if (rest.includes(item)) rest.splice(rest.indexOf(item), 1);
  return rest;
}
