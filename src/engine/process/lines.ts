import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

/** One line of a CLI's stdout: parsed when it is JSON, and always the raw text (for run logs). */
export interface CliLine {
  raw: string;
  /** The parsed value, or undefined when the line is not JSON (banners, garbage, a truncated last line). */
  json?: unknown;
}

/** Lines longer than this are dropped whole; a 5 MB tool result is far below it. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export function parseLine(raw: string): CliLine | undefined {
  const text = raw.charCodeAt(raw.length - 1) === CR ? raw.slice(0, -1) : raw;
  // The first character that is not blank, found without copying the line (they can be megabytes).
  let at = 0;
  while (at < text.length && isBlank(text.charCodeAt(at))) at++;
  if (at === text.length) return undefined;
  // Only try JSON where JSON can start: a stray banner line costs no exception.
  const first = text.charCodeAt(at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    try {
      return { raw: text, json: JSON.parse(text) };
    } catch {
      // falls through: kept as a raw line
    }
  }
  return { raw: text };
}

const CR = 13;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const isBlank = (code: number) => code === 32 || code === 9 || code === 13 || code === 11 || code === 12 || code === 0xa0 || code === 0xfeff;

/**
 * Splits a CLI's output into lines as its chunks come, each to `onLine`: straight from the
 * chunks, not through a line-splitting stream in object mode, since this runs for every line
 * a CLI prints and each stream layer costs more per line than the splitting. A line longer
 * than `maxBytes` is dropped whole and splitting goes on.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  /** The last chunk went through the decoder, which may hold the start of a character it split. */
  private decoding = false;
  private carry = '';
  private skipping = false;

  constructor(
    private readonly onLine: (line: CliLine) => void,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  /**
   * A chunk all ASCII (most of them: code, logs, English) is its own text, copied byte for
   * byte, where decoding UTF-8 costs several times that; one that follows a chunk the decoder
   * took goes through it too, which ends a character it holds.
   */
  push(chunk: Buffer): void {
    const ascii = isAscii(chunk);
    this.take(ascii && !this.decoding ? chunk.toString('latin1') : this.decoder.write(chunk));
    this.decoding = !ascii;
  }

  /** The output ended: its last line counts even without a newline. */
  end(): void {
    this.take(this.decoder.end());
    if (this.carry && !this.skipping) this.emit(this.carry);
    this.carry = '';
  }

  private emit(raw: string): void {
    const line = parseLine(raw);
    if (line) this.onLine(line);
  }

  private take(text: string): void {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const raw = start === 0 && this.carry ? this.carry + text.slice(0, end) : text.slice(start, end);
      if (start === 0) this.carry = '';
      start = end + 1;
      if (this.skipping) this.skipping = false;
      else this.emit(raw);
    }
    if (start === 0) this.carry += text;
    else this.carry = text.slice(start);
    if (this.carry.length > this.maxBytes) {
      this.carry = '';
      this.skipping = true;
    }
  }
}

/** Calls `onLine` with every line of `stream` until it ends (resolves) or fails (rejects). */
export function readLines(stream: Readable, onLine: (line: CliLine) => void, maxBytes = MAX_LINE_BYTES): Promise<void> {
  const splitter = new LineSplitter(onLine, maxBytes);
  return new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => splitter.push(chunk));
    stream.once('end', () => {
      splitter.end();
      resolve();
    });
    stream.once('error', reject);
  });
}
