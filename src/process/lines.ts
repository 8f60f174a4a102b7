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
 * Calls `onLine` with every line of `stream` until it ends (resolves) or fails (rejects).
 * Straight from the stream's chunks, not through a line-splitting stream in object mode:
 * this runs for every line a CLI prints, and each stream layer costs more per line than the
 * splitting. A line longer than MAX_LINE_BYTES is dropped whole and reading goes on.
 */
export function readLines(stream: Readable, onLine: (line: CliLine) => void, maxBytes = MAX_LINE_BYTES): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let skipping = false;
  const take = (text: string) => {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const raw = start === 0 && carry ? carry + text.slice(0, end) : text.slice(start, end);
      if (start === 0) carry = '';
      start = end + 1;
      if (skipping) skipping = false;
      else {
        const line = parseLine(raw);
        if (line) onLine(line);
      }
    }
    if (start === 0) carry += text;
    else carry = text.slice(start);
    if (carry.length > maxBytes) {
      carry = '';
      skipping = true;
    }
  };
  return new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => take(decoder.write(chunk)));
    stream.once('end', () => {
      take(decoder.end());
      if (carry && !skipping) {
        const line = parseLine(carry);
        if (line) onLine(line);
      }
      resolve();
    });
    stream.once('error', reject);
  });
}
