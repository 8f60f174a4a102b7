/**
 * The part of reading a shell line that shell-quote does not do: it knows quotes, words and
 * operators, but not newlines as separators, comments, here-documents, or the commands a line
 * runs inside `$(…)`, backticks, `<(…)` and `${…}`. This pass, aware of quoting, turns the line
 * into one shell-quote can read (each substitution an expansion it cannot know, each newline a
 * `;`) and hands back the lines run inside substitutions, to be read the same way.
 */

/** What a substitution becomes: an expansion, whose value the reader cannot know. */
export const UNKNOWN_EXPANSION = '${__}';

/** Deeper than this, a line is not understood (and so binds every rule of its tool). */
const MAX_DEPTH = 16;

/**
 * The line as shell-quote should read it, and the lines its substitutions run; undefined where
 * it cannot be read with certainty (an unclosed quote or substitution, a stray `)`).
 */
export function scanShellLine(line: string): { text: string; nested: string[] } | undefined {
  try {
    const scanner = new Scanner(line, 0);
    const text = scanner.scan(undefined);
    return { text, nested: scanner.nested };
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}

class Unreadable extends Error {}

const DESCRIPTOR = /\d+(?=[<>])/y;
/** `case … esac`, whose patterns end in a `)` that closes nothing. */
const CASE_WORD = /(case|esac)(?=[\s;&|()<>]|$)/y;

interface HereDoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

class Scanner {
  i = 0;
  readonly nested: string[] = [];
  private readonly hereDocs: HereDoc[] = [];
  private cases = 0;

  constructor(
    private readonly src: string,
    private readonly depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new Unreadable();
  }

  /** Reads up to `closer` (unquoted, at depth 0), or the end; returns the text for shell-quote. */
  scan(closer: ')' | '}' | undefined): string {
    const out: string[] = [];
    let parens = 0;
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i]!;
      const next = src[this.i + 1];
      const wordStart = out.length === 0 || /[\s;&|()<>]/.test(out[out.length - 1]!.at(-1)!);
      if (wordStart) this.caseWord();
      if (c === closer && parens === 0 && (closer !== ')' || this.cases === 0)) {
        this.i++;
        return out.join('');
      }
      if (c === '\\') {
        if (next === '\n') this.i += 2;
        else if (next === undefined) throw new Unreadable();
        else out.push(this.take(2));
      } else if (c === "'") out.push(this.read(/'[^']*'/y)[0]);
      // `$'…'`: a backslash escapes the next character, a quote included.
      else if (c === '$' && next === "'") out.push(this.read(/\$'(?:\\[^]|[^\\'])*'/y)[0]);
      else if (c === '"') out.push(this.doubleQuoted());
      else if (c === '`' || (c === '$' && (next === '(' || next === '{')) || ((c === '<' || c === '>') && next === '(')) out.push(this.substitution());
      else if (c === '#' && wordStart && closer !== '}') this.skipComment();
      // shell-quote would take a `#` inside a word for a comment
      else if (c === '#') out.push('\\' + this.take(1));
      else if (c === '\n') out.push(this.newline());
      else if (c === '<' && next === '<' && src[this.i + 2] !== '<') out.push(this.hereDocStart());
      else if (wordStart && this.descriptor()) continue;
      else {
        if (c === '(') parens++;
        // A case pattern's `)` closes nothing.
        if (c === ')' && !(parens === 0 && this.cases > 0) && --parens < 0) throw new Unreadable();
        out.push(this.take(1));
      }
    }
    if (closer !== undefined || parens !== 0) throw new Unreadable();
    return out.join('');
  }

  private take(count: number): string {
    this.i += count;
    return this.src.slice(this.i - count, this.i);
  }

  /** What `pattern` (sticky) matches where the reading is, read past; no match: the line cannot be read. */
  private read(pattern: RegExp): RegExpExecArray {
    pattern.lastIndex = this.i;
    const match = pattern.exec(this.src);
    if (!match) throw new Unreadable();
    this.i = pattern.lastIndex;
    return match;
  }

  /** A newline ends a command, and starts the bodies of the here-documents its line opened. */
  private newline(): string {
    this.i++;
    this.readHereDocs();
    return ' ; ';
  }

  private caseWord(): void {
    CASE_WORD.lastIndex = this.i;
    const match = CASE_WORD.exec(this.src);
    if (match) this.cases += match[1] === 'case' ? 1 : -1;
  }

  /** `2>&1`: the number before a redirection names a descriptor, and is no word of the command. */
  private descriptor(): boolean {
    DESCRIPTOR.lastIndex = this.i;
    if (!DESCRIPTOR.test(this.src)) return false;
    this.i = DESCRIPTOR.lastIndex;
    return true;
  }

  /** `"…"`: substitutions inside still run; a backslash-newline joins lines. */
  private doubleQuoted(): string {
    let out = '"';
    this.i++;
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      const next = this.src[this.i + 1];
      if (c === '"') {
        this.i++;
        return out + '"';
      }
      if (c === '\\' && next === '\n') this.i += 2;
      else if (c === '\\' && next !== undefined) out += this.take(2);
      else if (c === '`' || (c === '$' && (next === '(' || next === '{'))) out += this.substitution();
      else out += this.take(1);
    }
    throw new Unreadable();
  }

  /** `$(…)`, `$((…))`, `` `…` ``, `<(…)`, `>(…)`, `${…}`: the line inside is kept to be read, and the whole is an unknown expansion. */
  private substitution(): string {
    const src = this.src;
    if (src[this.i] === '`') {
      this.nested.push(this.read(/`((?:\\[^]|[^\\`])*)`/y)[1]!.replace(/\\([\\`$])/g, '$1'));
      return UNKNOWN_EXPANSION;
    }
    const brace = src[this.i + 1] === '{';
    const start = this.i + 2;
    const inner = new Scanner(src, this.depth + 1);
    inner.i = start;
    inner.scan(brace ? '}' : ')');
    this.i = inner.i;
    // `${X:-$(git push)}`: what runs inside a parameter's expansion is found by reading it as a line.
    this.nested.push(src.slice(start, this.i - 1));
    return UNKNOWN_EXPANSION;
  }

  private skipComment(): void {
    const end = this.src.indexOf('\n', this.i);
    this.i = end < 0 ? this.src.length : end;
  }

  /** `<<EOF`, `<<-'EOF'`: the body, read at the next newline, is data unless its delimiter is unquoted (then substitutions in it run). */
  private hereDocStart(): string {
    const match = this.read(/<<(-?)[ \t]*((?:'[^']*'|"[^"]*"|\\.|[^\s;&|()<>])+)/y);
    const word = match[2]!;
    this.hereDocs.push({ delimiter: word.replace(/['"\\]/g, ''), stripTabs: match[1] === '-', expands: !/['"\\]/.test(word) });
    return ` << ${word} `;
  }

  private readHereDocs(): void {
    for (const doc of this.hereDocs.splice(0)) {
      const bodyStart = this.i;
      let end = 0;
      let after = 0;
      for (let at = this.i; at <= this.src.length;) {
        const newline = this.src.indexOf('\n', at);
        const lineEnd = newline < 0 ? this.src.length : newline;
        const line = this.src.slice(at, lineEnd);
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) {
          end = at;
          after = newline < 0 ? this.src.length : newline + 1;
          break;
        }
        if (newline < 0) throw new Unreadable(); // a body running to the end may be `((x << 2))`, not a here-document
        at = newline + 1;
      }
      if (doc.expands) this.expandedBody(this.src.slice(bodyStart, end));
      this.i = after;
    }
  }

  /** An unquoted delimiter's body: each substitution in it runs, like inside double quotes. */
  private expandedBody(body: string): void {
    const inner = new Scanner(`"${body.replace(/["]/g, '\\"')}"`, this.depth + 1);
    inner.scan(undefined);
    this.nested.push(...inner.nested);
  }
}
