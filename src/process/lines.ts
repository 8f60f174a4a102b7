import split2 from 'split2';
import type { Transform } from 'node:stream';

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
 * A stream that turns stdout bytes into CliLines. We use split2 (what ndjson.parse is built
 * on) directly, because ndjson.parse either drops non-JSON lines or errors the stream on
 * them, and the bridge must keep them as log lines and carry on.
 */
export function jsonLines(): Transform {
  // skipOverflow (drop an over-long line, keep going) is in split2 but missing from its types.
  const options = { maxLength: MAX_LINE_BYTES, skipOverflow: true } as split2.Options;
  // A plain '\n' splits faster than split2's default /\r?\n/; parseLine drops the '\r'.
  return split2('\n', parseLine, options);
}
