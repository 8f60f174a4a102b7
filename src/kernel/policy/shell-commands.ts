import { parse, type ParseEntry } from 'shell-quote';
import { scanShellLine } from './shell-scan.ts';

/**
 * The simple commands a shell line runs, as the shell would split and unquote their words:
 * across `;`, `&&`, `||`, pipes, subshells, braces, `if`/`for`/`while`/`case` and functions'
 * bodies, and inside every substitution. A part whose value the line cannot know (an
 * expansion, a substitution's output, a glob) is written `ANY` within its word.
 */

/** Stands for text whose value cannot be known from the line. */
export const ANY = '\u0000';

/** The words of one simple command. */
export type Words = string[];

/** Words that are shell syntax where a command starts, not a program (`if`, `then`, `{`, `!` …). */
const KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'esac', 'coproc']);
const SEPARATORS = new Set([';', '&', '&&', '||', '|', '|&', ')']);
const CASE_ENDS = new Set([';;', ';&', ';;&']);
const REDIRECTIONS = new Set(['>', '>>', '<', '>&', '<&', '&>', '&>>', '>|', '<>', '<<', '<<-', '<<<']);
const MAX_LINES = 200;

/** The line's simple commands, or undefined where the line cannot be read with certainty (so a rule binds it). */
export function simpleCommands(line: string): Words[] | undefined {
  const pending = [line];
  const commands: Words[] = [];
  for (let read = 0; pending.length; read++) {
    if (read > MAX_LINES) return undefined;
    const scanned = scanShellLine(pending.shift()!);
    if (!scanned) return undefined;
    pending.push(...scanned.nested);
    let tokens: ParseEntry[];
    try {
      tokens = parse(scanned.text, () => ANY);
    } catch {
      return undefined;
    }
    const found = new Walker().walk(tokens);
    if (!found) return undefined;
    commands.push(...found);
  }
  return commands;
}

type Mode = 'command' | 'skip-to-separator' | 'case-word' | 'case-pattern' | 'conditional' | 'array';

/** Walks shell-quote's tokens, gathering simple commands and passing over the syntax around them. */
class Walker {
  private readonly commands: Words[] = [];
  private words: Words = [];
  private mode: Mode = 'command';
  private skipTarget = false;

  walk(tokens: readonly ParseEntry[]): Words[] | undefined {
    for (let at = 0; at < tokens.length; at++) {
      const token = tokens[at]!;
      const next = tokens[at + 1];
      if (typeof token === 'object' && 'comment' in token) return undefined; // the scanner took comments out: one here is a misreading
      const op = typeof token === 'object' && 'op' in token && token.op !== 'glob' ? token.op : undefined;
      const word = op === undefined ? wordOf(token) : undefined;
      if (this.skipTarget) {
        this.skipTarget = false;
        if (word !== undefined) continue;
      }
      if (this.mode !== 'command') {
        this.passOver(op, word);
        continue;
      }
      if (word !== undefined) {
        this.take(word);
      } else if (op !== undefined && REDIRECTIONS.has(op)) {
        this.skipTarget = true;
      } else if (op === '(' && this.words.length === 1 && isOp(next, ')')) {
        this.words = []; // `name () { … }`: a function's name; its body is read as commands
        at++;
      } else if (op === '(' && this.words.length > 0 && /^[A-Za-z_]\w*\+?=$/.test(this.words.at(-1)!)) {
        this.words.pop();
        this.flush();
        this.mode = 'array';
      } else if (op === '(' && this.words.length > 0) {
        return undefined; // `git @(push)` (extglob) or a syntax the bridge cannot be sure of
      } else if (op !== undefined && CASE_ENDS.has(op)) {
        this.flush();
        this.mode = 'case-pattern';
      } else if (op === '(' || (op !== undefined && SEPARATORS.has(op))) {
        this.flush();
      } else return undefined;
    }
    if (this.mode === 'case-word' || this.mode === 'case-pattern' || this.mode === 'conditional') return undefined;
    this.flush();
    return this.commands;
  }

  /** A word where a command is being gathered: at its start, shell syntax is passed over. */
  private take(word: string): void {
    if (this.words.length > 0) {
      this.words.push(word);
      return;
    }
    if (KEYWORDS.has(word)) return;
    if (word === 'for' || word === 'select' || word === 'function') this.mode = 'skip-to-separator';
    else if (word === 'case') this.mode = 'case-word';
    else if (word === '[[') this.mode = 'conditional';
    else this.words.push(word);
  }

  /**
   * Syntax that holds no command: a `for`'s list, a `case`'s word and patterns, `[[ … ]]`, an
   * array's values. (shell-quote does not tell `((` from `( (`: an arithmetic `(( … ))` is read
   * as subshells, whose words name no program a rule names, or are unknown and bind.)
   */
  private passOver(op: string | undefined, word: string | undefined): void {
    if (this.mode === 'skip-to-separator' && (op === ';' || op === '&' || word === 'do' || word === '{')) this.mode = 'command';
    else if (this.mode === 'case-word' && word === 'in') this.mode = 'case-pattern';
    else if (this.mode === 'case-pattern' && word === 'esac') this.mode = 'command';
    else if (this.mode === 'case-pattern' && op === ')') this.mode = 'command';
    else if (this.mode === 'conditional' && word === ']]') this.mode = 'command';
    else if (this.mode === 'array' && op === ')') this.mode = 'command';
  }

  private flush(): void {
    if (this.words.length) this.commands.push(this.words);
    this.words = [];
  }
}

function isOp(token: ParseEntry | undefined, op: string): boolean {
  return typeof token === 'object' && 'op' in token && token.op === op;
}

/**
 * A word as it will run: a glob (`*`, `?`, `[…]`) or a brace expansion (`{a,b}`) may become any
 * words, so it is unknown. shell-quote does not say whether `[` or `{` was quoted: taking them as
 * unknown either way only ever widens a match.
 */
function wordOf(token: ParseEntry): string {
  if (typeof token === 'string') return /\[.*\]|\{[^}]*(?:,|\.\.)[^}]*\}/.test(token) ? ANY : token;
  return ANY;
}
