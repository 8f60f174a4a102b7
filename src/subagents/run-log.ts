import { createWriteStream, renameSync, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * A run's raw JSONL, bounded: past `maxBytes` the file rotates once (`.1` keeps the
 * previous part), so a run costs at most twice that on disk, however much it prints.
 */
export class RunLog {
  private stream: WriteStream;
  private bytes = 0;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {
    this.stream = this.open();
  }

  write(line: string): void {
    // A single line larger than the bound is cut, not dropped: its start says what it was.
    const text = line.length > this.maxBytes / 2 ? `${line.slice(0, Math.floor(this.maxBytes / 2))}… [cut: ${line.length} characters]` : line;
    const size = Buffer.byteLength(text) + 1;
    if (this.bytes > 0 && this.bytes + size > this.maxBytes) this.rotate();
    this.bytes += size;
    this.stream.write(`${text}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }

  private open(): WriteStream {
    return createWriteStream(this.file, { flags: 'a', mode: 0o600 });
  }

  private rotate(): void {
    const old = this.stream;
    try {
      // The old stream's descriptor follows the rename: its last writes land in `.1`.
      renameSync(this.file, `${this.file}.1`);
    } catch {
      // not created yet (a burst before the first open): keep appending to the one file
    }
    old.end();
    this.stream = this.open();
    this.bytes = 0;
  }
}

/** The run's lines, oldest first, from the previous part and the current one. */
export async function readRunLog(file: string): Promise<string[]> {
  const parts = await Promise.all([`${file}.1`, file].map((path) => readFile(path, 'utf8').catch(() => '')));
  return parts.join('').split('\n').filter(Boolean);
}
