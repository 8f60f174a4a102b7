import { createHash } from 'node:crypto';
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { TranscriptEntry } from './transcript-entry.ts';
import { cut, readRotated } from '../subagents/run-log.ts';
import { jsonOf } from '../../kernel/protocols/decoder.ts';

/** A chat's transcript rotates past this (`.1` keeps the part before): at most twice it on disk per chat. */
export const TRANSCRIPT_MAX_BYTES = 4 * 1024 * 1024;
/** What one line keeps of a text (prose, an answer): a turn's words are rarely longer, and a line never grows without bound. */
const TEXT_CHARS = 100_000;
/** What one line keeps of a tool call's input (a file written whole is its start): the export shows an input's preview. */
const INPUT_CHARS = 4_000;

/**
 * The bridge's own record of what chats' main sessions said and did, turn by turn: one JSONL
 * file per chat under `<dataDir>/transcripts/` (owner-only, as everything in the data
 * directory), bounded by rotation. The CLIs keep their own transcripts, but in their own
 * formats, where the bridge may not read them (another user's home, a worker's machine):
 * `/export` and the dashboard's share links read this one. Lines are appended in the order
 * they were recorded, a chat's writes one batch at a time.
 */
export class Transcripts {
  private readonly dir: string;
  private readonly writes = new KeyedSerializer();
  private readonly waiting = new Map<string, string[]>();
  /** Bytes in each chat's current part, once known. */
  private readonly sizes = new Map<string, number>();
  private made: Promise<unknown> | undefined;

  constructor(
    dataDir: string,
    private readonly maxBytes = TRANSCRIPT_MAX_BYTES,
  ) {
    this.dir = join(dataDir, 'transcripts');
  }

  /** Notes a line of the chat's (`chatKey`) transcript; written shortly, in order. */
  record(chat: string, entry: TranscriptEntry): void {
    const line = JSON.stringify(bounded(entry));
    const waiting = this.waiting.get(chat);
    if (waiting) {
      waiting.push(line);
      return;
    }
    this.waiting.set(chat, [line]);
    void this.writes
      .run(chat, () => this.write(chat))
      .catch(() => {
        // A full disk loses transcript lines, never a turn: the export says what it has.
      });
  }

  /** Every kept line of the chat's transcript, oldest first (lines still on their way included). */
  async read(chat: string): Promise<TranscriptEntry[]> {
    await this.writes.run(chat, async () => {});
    // A line torn by a crash mid-append is left out.
    return (await readRotated(this.fileOf(chat))).flatMap((line) => jsonOf<TranscriptEntry>(line) ?? []);
  }

  /** Resolves once everything recorded so far is on disk (a shutdown waits for it). */
  async flush(): Promise<void> {
    await Promise.all([...this.waiting.keys()].map((chat) => this.writes.run(chat, async () => {})));
  }

  private async write(chat: string): Promise<void> {
    const lines = this.waiting.get(chat) ?? [];
    this.waiting.delete(chat);
    if (!lines.length) return;
    this.made ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.made;
    const file = this.fileOf(chat);
    const text = `${lines.join('\n')}\n`;
    const bytes = Buffer.byteLength(text);
    let size =
      this.sizes.get(chat) ??
      (await stat(file)
        .then((s) => s.size)
        .catch(() => 0));
    if (size > 0 && size + bytes > this.maxBytes) {
      await rename(file, `${file}.1`);
      size = 0;
    }
    await appendFile(file, text, { mode: 0o600 });
    this.sizes.set(chat, size + bytes);
  }

  /** A chat's file: its key hashed, so no chat id (a word on some apps) becomes a path. */
  private fileOf(chat: string): string {
    return join(this.dir, `${createHash('sha256').update(chat).digest('hex').slice(0, 32)}.jsonl`);
  }
}

function bounded(entry: TranscriptEntry): TranscriptEntry {
  switch (entry.kind) {
    case 'prompt':
    case 'text':
      return { ...entry, text: cut(entry.text, TEXT_CHARS) };
    case 'tool':
      return { ...entry, input: cut(entry.input, INPUT_CHARS) };
    case 'end':
      return { ...entry, answer: cut(entry.answer, TEXT_CHARS) };
    default:
      return entry;
  }
}
