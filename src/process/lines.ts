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
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (text.trim() === '') return undefined;
  // Only try JSON where JSON can start: a stray banner line costs no exception.
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      return { raw: text, json: JSON.parse(text) };
    } catch {
      // falls through: kept as a raw line
    }
  }
  return { raw: text };
}

/**
 * A stream that turns stdout bytes into CliLines. We use split2 (what ndjson.parse is built
 * on) directly, because ndjson.parse either drops non-JSON lines or errors the stream on
 * them, and the bridge must keep them as log lines and carry on.
 */
export function jsonLines(): Transform {
  // skipOverflow (drop an over-long line, keep going) is in split2 but missing from its types.
  const options = { maxLength: MAX_LINE_BYTES, skipOverflow: true } as split2.Options;
  return split2(parseLine, options);
}
