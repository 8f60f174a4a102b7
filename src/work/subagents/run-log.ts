import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Gathered lines are written this often, or at once past FLUSH_BYTES. */
const FLUSH_MS = 100;
const FLUSH_BYTES = 64 * 1024;

/**
 * A run's raw JSONL, bounded: past `maxBytes` the file rotates once (`.1` keeps the
 * previous part), so a run costs at most twice that on disk, however much it prints.
 * Lines are gathered and appended synchronously every FLUSH_MS (sooner when many are
 * waiting): a system call costs more than handling a line, so a chatty run pays one for many
 * lines; the order stays exact, and a crash loses at most the last tenth of a second.
 */
export class RunLog {
  private fd: number | undefined;
  private bytes = 0;
  private pending: string[] = [];
  private pendingBytes = 0;
  private flushing: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {
    this.fd = openSync(file, 'a', 0o600);
  }

  write(line: string): void {
    if (this.fd === undefined) return;
    // A single line larger than half the bound is cut, not dropped: its start says what it was.
    const half = Math.floor(this.maxBytes / 2);
    const text = cut(line, half);
    const size = Buffer.byteLength(text) + 1;
    if (this.bytes > 0 && this.bytes + size > this.maxBytes) this.rotate();
    this.bytes += size;
    this.pending.push(text);
    this.pendingBytes += size;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else this.flushing ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Everything written so far is in the file (readers of a live run's log call this first). */
  flush(): void {
    clearTimeout(this.flushing);
    this.flushing = undefined;
    if (this.fd === undefined || !this.pending.length) return;
    writeSync(this.fd, `${this.pending.join('\n')}\n`);
    this.pending = [];
    this.pendingBytes = 0;
  }

  close(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private rotate(): void {
    this.flush();
    closeSync(this.fd!);
    renameSync(this.file, `${this.file}.1`);
    this.fd = openSync(this.file, 'a', 0o600);
    this.bytes = 0;
  }
}

/** A rotated file's lines (a run's log, a chat's transcript), oldest first, from the previous part and the current one. */
export async function readRotated(file: string): Promise<string[]> {
  const parts = await Promise.all([`${file}.1`, file].map((path) => readFile(path, 'utf8').catch(() => '')));
  return parts.join('').split('\n').filter(Boolean);
}

/** A text cut to `chars`, saying how long it was: a line of a log or a transcript never grows without bound. */
export function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}… [cut: ${text.length} characters]` : text;
}
