import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/** The YAML parser, loaded for the first file that has front matter (most starts read none). */
const yaml = (): typeof Yaml => createRequire(import.meta.url)('yaml') as typeof Yaml;

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Splits `---\n<yaml>\n---\n<body>`. A file without the opening line has no front matter: all of
 * it is the body. Line numbers in messages count from the top of the file.
 */
export function parseFrontMatter(source: string): { value: FrontMatter } | { message: string } {
  const text = source.replace(/\r\n?/g, '\n');
  const opening = OPENING.exec(text);
  if (!opening) return { value: { data: {}, body: text } };

  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { message: 'the front matter has no closing "---" line' };

  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { prettyErrors: false, lineCounter });
  const error = document.errors[0];
  if (error) {
    const line = lineCounter.linePos(error.pos[0]).line + 1; // + the opening "---"
    return { message: `invalid YAML in the front matter at line ${line}: ${error.message}` };
  }
  let data: unknown;
  try {
    data = document.toJS() ?? {};
  } catch (error) {
    // e.g. too many aliases: yaml refuses to expand a "billion laughs" document
    return { message: `invalid YAML in the front matter: ${(error as Error).message}` };
  }
  if (typeof data !== 'object' || Array.isArray(data)) return { message: 'the front matter must be a YAML mapping of fields' };
  return { value: { data: data as Record<string, unknown>, body } };
}
