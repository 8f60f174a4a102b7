import { lineRuns } from './command-runs.ts';
import { ANY } from './shell-commands.ts';

/**
 * Whether a shell command falls under a Bash rule's specifier (`git push*`, `git push:*`,
 * `*deploy*`), read as the shell would run it: every command the line may run, through
 * wrappers, quoting and `sh -c`, is tried, and one the bridge cannot know matches. A plain
 * function over the command's text, for any CLI whose tool calls carry a shell command.
 */
export function commandFallsUnder(spec: string, command: string): boolean {
  const globs = specGlobs(spec);
  return lineRuns(command).some((words) => {
    const text = words.join(' ');
    return globs.some((glob) => globsMeet(glob, text));
  });
}

/** Claude Code's prefix form `git push:*` is the command itself or it and more words; otherwise `*` is any text. */
function specGlobs(spec: string): string[] {
  const plain = spec.trim().replace(/\s+/g, ' ');
  if (!plain.endsWith(':*')) return [plain];
  const prefix = plain.slice(0, -2);
  return [prefix, `${prefix} *`];
}

/**
 * Whether some text is matched both by a rule's glob (`*` any text) and by a command whose
 * `ANY` parts may be any text: whether the command could be one the rule names.
 */
function globsMeet(glob: string, command: string): boolean {
  // reached[i]: the first i characters of the glob and the command's characters so far can be the same text.
  let reached = closure(glob, command, 0, [true, ...new Array<boolean>(glob.length).fill(false)]);
  for (let j = 0; j < command.length; j++) {
    const next = new Array<boolean>(glob.length + 1).fill(false);
    const c = command[j]!;
    for (let i = 0; i <= glob.length; i++) {
      if (!reached[i]) continue;
      const g = glob[i];
      if (c === ANY || g === '*') next[i] = true; // a wildcard takes this character and may take more
      if (g !== undefined && (g === c || c === ANY || g === '*')) next[i + 1] = true;
    }
    reached = closure(glob, command, j + 1, next);
    if (!reached.includes(true)) return false;
  }
  return reached[glob.length]!;
}

/** Adds what is reached for free: a `*` of the glob, or an `ANY` of the command, taking nothing. */
function closure(glob: string, command: string, j: number, reached: boolean[]): boolean[] {
  for (let i = 0; i < glob.length; i++) {
    if (reached[i] && (glob[i] === '*' || command[j] === ANY)) reached[i + 1] = true;
  }
  return reached;
}
