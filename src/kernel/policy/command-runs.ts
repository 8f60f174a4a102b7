import { ANY, simpleCommands, type Words } from './shell-commands.ts';
import {
  GIT_OPTIONS,
  LINES_IN_WORDS,
  RUNS_SOMEWHERE_IN_ITS_WORDS,
  SHELL_VALUE_LETTERS,
  SHELL_VALUE_LONG,
  SHELLS,
  UNREADABLE_PROGRAMS,
  WRAPPERS,
  type OptionTable,
} from './wrapper-options.ts';

/**
 * Everything a shell line may run, each as the words a rule is matched against: every simple
 * command as written, with its program's name alone (`/usr/bin/git` → `git`), and through each
 * wrapper to what it runs (`env X=1 timeout 9 git -C . push` → `git push`), into `sh -c`'s line
 * and `find -exec`'s command. `[ANY]` stands for a command that cannot be known (`eval`, `$G push`,
 * `… | sh`, a line that does not parse): it matches every rule of its tool.
 */
export function lineRuns(line: string): Words[] {
  const reader = new RunReader();
  reader.line(line, 0);
  return reader.runs;
}

/** Past these, a line is not understood: its reading stops, and it matches every rule. */
const MAX_DEPTH = 12;
const MAX_WORDS_READ = 100_000;
const MAX_TRIED_PROGRAMS = 64;

class RunReader {
  readonly runs: Words[] = [];
  private wordsRead = 0;

  line(line: string, depth: number): void {
    const commands = depth > MAX_DEPTH ? undefined : simpleCommands(line);
    if (!commands) return this.unknown();
    for (const words of commands) this.command(words, depth);
  }

  private unknown(): void {
    this.runs.push([ANY]);
  }

  private command(words: Words, depth: number): void {
    this.wordsRead += words.length;
    if (depth > MAX_DEPTH || this.wordsRead > MAX_WORDS_READ) return this.unknown();
    const start = words.findIndex((word) => !isAssignment(word));
    if (start < 0) return;
    const run = words.slice(start);
    const program = run[0]!;
    if (program.includes(ANY)) return this.unknown();
    const args = run.slice(1);
    const name = program.replace(/^=/, '').replace(/^.*\//, ''); // `/usr/bin/git`, `./git`, zsh's `=git`
    this.runs.push(run);
    if (name !== program) this.runs.push([name, ...args]);
    const dashed = /^git-(.+)$/.exec(name); // `git-push`, as git's own directory holds it
    if (dashed) this.runs.push(['git', dashed[1]!, ...args]);
    if (UNREADABLE_PROGRAMS.has(name)) this.unknown();
    else if (LINES_IN_WORDS.has(name)) for (const word of args) this.line(name === 'alias' ? word.slice(word.indexOf('=') + 1) : word, depth + 1);
    else if (SHELLS.has(name)) this.shell(args, depth);
    else if (name === 'git') this.git(args);
    else if (name === 'find') this.find(args, depth);
    else if (Object.hasOwn(WRAPPERS, name)) this.wrapper(name, WRAPPERS[name]!, args, depth);
    else if (RUNS_SOMEWHERE_IN_ITS_WORDS.has(name)) this.anywhere(args, 0, depth);
  }

  /** `sh -c 'line'` reads its line; `sh` with no script (`… | sh`, `sh -s`, `sh <<EOF`) runs what it is sent, which cannot be known. */
  private shell(args: Words, depth: number): void {
    let at = 0;
    let takesLine = false;
    let readsInput = false;
    for (; at < args.length; at++) {
      const word = args[at]!;
      if (word === '--' || word === '-') {
        at++;
        break;
      }
      if (word.startsWith('--command=')) return this.line(word.slice('--command='.length), depth + 1);
      if (word === '--command') takesLine = true;
      else if (SHELL_VALUE_LONG.has(word)) at++;
      else if (word.startsWith('--')) continue;
      else if (!/^[-+]./.test(word)) break;
      else
        for (const letter of word.slice(1)) {
          if (letter === 'c') takesLine = true;
          if (letter === 's') readsInput = true;
          if (SHELL_VALUE_LETTERS.includes(letter)) at++;
        }
    }
    const operand = args[at];
    if (args.slice(0, at).some((word) => word.includes(ANY))) return this.unknown();
    if (takesLine) return operand === undefined || operand.includes(ANY) ? this.unknown() : this.line(operand, depth + 1);
    // A script file's commands are the file's, as a program's are: only a script that cannot be known binds.
    if (readsInput || operand === undefined || operand.includes(ANY)) this.unknown();
  }

  /** git's own options before its subcommand: `git -C x -c k=v --no-pager push` is `git push`. */
  private git(args: Words): void {
    const read = readOptions(GIT_OPTIONS, args);
    if (read.unknownAt !== undefined) {
      for (let at = read.unknownAt; at < args.length && at - read.unknownAt < MAX_TRIED_PROGRAMS; at++) this.runs.push(['git', ...args.slice(at)]);
      return;
    }
    // `git -c alias.p=push p`: an alias set on the line may run anything.
    if (read.values.some(([option, value]) => (option === 'c' || option === 'config-env') && /^alias\./i.test(value))) return this.unknown();
    // `git -C $D status`, with D='. push': an expansion among the options may hold the subcommand.
    const unsure = args.slice(0, read.end).some((word) => word.includes(ANY));
    this.runs.push(['git', ...(unsure ? [ANY] : []), ...args.slice(read.end)]);
  }

  /** `find … -exec cmd {} \;` runs cmd, with each found path where `{}` is. */
  private find(args: Words, depth: number): void {
    for (let at = 0; at < args.length; at++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[at]!)) continue;
      const end = args.findIndex((word, index) => index > at && (word === ';' || word === '+'));
      const command = args.slice(at + 1, end < 0 ? undefined : end).map((word) => (word.includes('{}') ? ANY : word));
      if (command.length) this.command(command, depth + 1);
      if (end < 0) return;
      at = end;
    }
  }

  /** A program that runs the rest of its words, after its own options (`timeout 9 git push`). */
  private wrapper(name: string, table: OptionTable, args: Words, depth: number): void {
    const read = readOptions(table, args);
    if (read.unknownAt !== undefined) return this.anywhere(args, read.unknownAt, depth);
    // `env X=$Y git push`: an expansion before the program is split into words, which may be a program of their own.
    if (args.slice(0, read.end).some((word) => word.includes(ANY))) return this.unknown();
    let rest = args.slice(read.end);
    const split = read.values.find(([option]) => option === 'S' || option === 'split-string');
    if (name === 'env' && split) {
      const words = split[1].includes(ANY) ? undefined : simpleCommands(split[1]);
      if (words?.length !== 1) return this.unknown();
      rest = [...words[0]!, ...rest];
    }
    if (name === 'xargs') {
      // Each input is added to the command's words, or put where the replace string is.
      const replaced = read.values.flatMap(([option, value]) => (option === 'I' ? [value] : option === 'i' || option === 'replace' ? [value || '{}'] : []));
      rest = [...(rest.length ? rest : ['echo']).map((word) => (replaced.some((text) => word.includes(text)) ? ANY : word)), ANY];
    }
    if (rest.length) this.command(rest, depth + 1);
  }

  /** Past what the bridge knows of a program's words: each of them may be the program run, and each that reads as a line may be one. */
  private anywhere(args: Words, from: number, depth: number): void {
    if (args.length - from > MAX_TRIED_PROGRAMS) return this.unknown();
    for (let at = from; at < args.length; at++) {
      this.command(args.slice(at), depth + 1);
      if (/[\s;&|<>()$`]/.test(args[at]!)) this.line(args[at]!, depth + 1);
    }
  }
}

/** `NAME=value`, `NAME+=value`: an assignment before the program, not the program. */
function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word);
}

interface ReadOptions {
  /** Where the program's words begin. */
  end: number;
  /** Each option given with its value (`['u', 'root']`, `['c', 'alias.p=push']`); a flag's value is ''. */
  values: Array<[string, string]>;
  /** The first word that is an option the table does not know, or cannot be known. */
  unknownAt?: number;
}

/** Reads the options before a program: `-u root`, `-uroot`, `-abc`, `--user=root`, `--user root`, `--`. */
function readOptions(table: OptionTable, words: Words): ReadOptions {
  const values: Array<[string, string]> = [];
  let at = 0;
  for (; at < words.length; at++) {
    const word = words[at]!;
    if (word === '--') return { end: at + 1 + afterOptions(table, words.slice(at + 1)), values };
    if (word === '-') continue;
    if (!word.startsWith('-')) break;
    if (table.numeric && /^-\d+$/.test(word)) continue;
    if (word.startsWith('--')) {
      const [name, value] = splitLong(word.slice(2));
      if (table.withValueLong?.includes(name)) values.push([name, value ?? words[++at] ?? '']);
      else if (table.flagsLong?.includes(name)) values.push([name, value ?? '']);
      else return { end: at, values, unknownAt: at };
      continue;
    }
    for (let letter = 1; letter < word.length; letter++) {
      const option = word[letter]!;
      if (table.withValue.includes(option)) {
        values.push([option, word.slice(letter + 1) || (words[++at] ?? '')]);
        break;
      }
      if (!table.flags.includes(option)) return { end: at, values, unknownAt: at };
      values.push([option, '']);
    }
  }
  return { end: at + afterOptions(table, words.slice(at)), values };
}

/** The words after the options that are still not the program: assignments (`env X=1`), operands (`timeout 9`). */
function afterOptions(table: OptionTable, words: Words): number {
  let at = 0;
  if (table.assignments) while (at < words.length && isAssignment(words[at]!)) at++;
  return at + (table.operands ?? 0);
}

function splitLong(option: string): [string, string | undefined] {
  const equals = option.indexOf('=');
  return equals < 0 ? [option, undefined] : [option.slice(0, equals), option.slice(equals + 1)];
}
