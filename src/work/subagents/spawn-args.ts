import { splitToolRules } from '../../kernel/policy/tool-rules.ts';
import { MAX_TIMEOUT_SECONDS, type SpawnIntent } from './spawner.ts';

/** `/spawn [--label L] [--cli C] [--model M] [--agent A] [--timeout S] [--budget USD] [--allow T,…] [--deny T,…] [--ask] [--auto-approve] [--worktree] "task"`, parsed. */
export type SpawnArgs = Omit<SpawnIntent, 'context'>;

export class SpawnArgsError extends Error {
  override name = 'SpawnArgsError';
}

const VALUE_FLAGS = new Set(['label', 'cli', 'model', 'agent', 'timeout', 'budget', 'allow', 'deny']);
const SWITCHES: Record<string, 'ask' | 'autoApprove' | 'worktree'> = { ask: 'ask', 'auto-approve': 'autoApprove', worktree: 'worktree' };
export const SPAWN_FLAGS = '--label, --cli, --model, --agent, --timeout, --budget, --allow, --deny, --ask, --auto-approve, --worktree';
/** The most a single run may be given. */
const MAX_BUDGET_USD = 10_000;
// Phones turn "quotes" into “curly” ones; all of these open a quoted task or value.
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '”': '”', '‘': '’', '«': '»' };

/**
 * Flags first, then the task: one quoted string (which may span lines), or everything that
 * is left of the message, verbatim. `--` ends the flags, for a task that starts with `--`.
 */
export function parseSpawnArgs(input: string): SpawnArgs {
  const args: Partial<SpawnArgs> & Record<string, unknown> = {};
  let rest = input.trim();
  for (;;) {
    const flag = /^--([a-z-]+)(?:=(\S*))?(?=\s|$)/.exec(rest);
    if (!flag) break;
    rest = rest.slice(flag[0].length).trimStart();
    const name = flag[1]!;
    if (name === '') break;
    const switchName = SWITCHES[name];
    if (switchName) {
      if (flag[2] !== undefined) throw new SpawnArgsError(`--${name} takes no value.`);
      args[switchName] = true;
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new SpawnArgsError(`Unknown flag --${name}. Flags: ${SPAWN_FLAGS}.`);
    let value = flag[2];
    if (value === undefined) ({ value, rest } = takeToken(rest, `--${name}`));
    if (!value) throw new SpawnArgsError(`--${name} needs a value.`);
    if (name === 'timeout') {
      if (!/^\d+$/.test(value) || Number(value) < 1) throw new SpawnArgsError(`--timeout takes a whole number of seconds, got "${value}".`);
      if (Number(value) > MAX_TIMEOUT_SECONDS) throw new SpawnArgsError(`--timeout is at most ${MAX_TIMEOUT_SECONDS} seconds (a day), got ${value}.`);
      args.timeoutSeconds = Number(value);
    } else if (name === 'budget') {
      const usd = /^\$?(\d+(?:\.\d+)?)$/.exec(value);
      if (!usd || Number(usd[1]) <= 0 || Number(usd[1]) > MAX_BUDGET_USD)
        throw new SpawnArgsError(`--budget takes an amount of US dollars above 0 and at most ${MAX_BUDGET_USD}, like 0.50, got "${value.slice(0, 40)}".`);
      args.budgetUsd = Number(usd[1]);
    } else if (name === 'allow' || name === 'deny') args[name] = splitToolRules(value);
    else args[name] = value;
  }
  if (rest.startsWith('-- ') || rest === '--') rest = rest.slice(2).trimStart();
  const close = QUOTES[rest[0] ?? ''];
  let task = rest;
  if (close) {
    const end = findClosing(rest, close);
    if (end < 0) throw new SpawnArgsError(`The task's quote is never closed: end it with ${close}.`);
    const after = rest.slice(end + 1).trim();
    if (after) throw new SpawnArgsError(`Unexpected text after the quoted task: "${after.slice(0, 40)}". Put flags before the task.`);
    task = unescapeQuotes(rest.slice(1, end));
  }
  task = task.trim();
  if (!task) throw new SpawnArgsError('The task is empty: say what the subagent should do.');
  return { ...(args as Omit<SpawnArgs, 'task'>), task };
}

function takeToken(text: string, flag: string): { value: string; rest: string } {
  const close = QUOTES[text[0] ?? ''];
  if (close) {
    const end = findClosing(text, close);
    if (end < 0) throw new SpawnArgsError(`The value of ${flag} has an unclosed quote.`);
    return { value: unescapeQuotes(text.slice(1, end)), rest: text.slice(end + 1).trimStart() };
  }
  const match = /^\S+/.exec(text);
  if (!match || match[0].startsWith('--')) throw new SpawnArgsError(`${flag} needs a value.`);
  return { value: match[0], rest: text.slice(match[0].length).trimStart() };
}

/** Index of the closing quote, skipping backslash-escaped ones; -1 if none. */
function findClosing(text: string, close: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === close || (close === '”' && text[i] === '"')) return i;
  }
  return -1;
}

function unescapeQuotes(text: string): string {
  return text.replace(/\\(["'”’»\\])/g, '$1');
}
