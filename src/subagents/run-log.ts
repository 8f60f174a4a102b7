import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * A run's raw JSONL, bounded: past `maxBytes` the file rotates once (`.1` keeps the
 * previous part), so a run costs at most twice that on disk, however much it prints.
 * Writes are synchronous appends: lines are small, ordering is exact, and a crash loses
 * nothing already written.
 */
export class RunLog {
  private fd: number | undefined;
  private bytes = 0;

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
    const text = line.length > half ? `${line.slice(0, half)}… [cut: ${line.length} characters]` : line;
    const size = Buffer.byteLength(text) + 1;
    if (this.bytes > 0 && this.bytes + size > this.maxBytes) this.rotate();
    this.bytes += size;
    writeSync(this.fd, `${text}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private rotate(): void {
    closeSync(this.fd!);
    renameSync(this.file, `${this.file}.1`);
    this.fd = openSync(this.file, 'a', 0o600);
    this.bytes = 0;
  }
}

/** The run's lines, oldest first, from the previous part and the current one. */
export async function readRunLog(file: string): Promise<string[]> {
  const parts = await Promise.all([`${file}.1`, file].map((path) => readFile(path, 'utf8').catch(() => '')));
  return parts.join('').split('\n').filter(Boolean);
}
