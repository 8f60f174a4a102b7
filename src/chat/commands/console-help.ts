import { bold, code, lines, rich, type RichText } from '../../kernel/rich/index.ts';
import type { Command } from '../dispatch/command.ts';

/**
 * The console's /help, short enough to read in a terminal: the commands grouped by what they
 * are for, a line a group, without what only chat apps have (/start, a chat's people); each
 * command's options are `/help <command>`.
 */
const GROUPS: [string, string[]][] = [
  ['This session', ['new', 'stop', 'status', 'cli', 'model', 'cd', 'project', 'resume', 'handoff', 'plan', 'busy']],
  ['In the background', ['spawn', 'subagents', 'orchestrate', 'orchestrations', 'agents']],
  ['Later', ['every', 'at', 'schedules', 'hooks']],
  ["A worktree run's work", ['diff', 'merge', 'discard']],
  ['What the agent may do', ['permissions', 'trust', 'net', 'fallback']],
  ['Files, costs, the web', ['file', 'export', 'usage', 'dashboard']],
];

/** A chat app's: its welcome, and its chats' people (the console has one, its owner). */
const CHAT_APPS_ONLY = new Set(['start', 'allow', 'deny', 'whoami']);

export function consoleHelp(commands: readonly Command[], examples: readonly [string, string][]): RichText {
  const names = new Set(commands.map((c) => c.name).filter((name) => !CHAT_APPS_ONLY.has(name) && name !== 'help'));
  const grouped = new Set(GROUPS.flatMap(([, group]) => group));
  const groups: [string, string[]][] = [...GROUPS, ['More', [...names].filter((name) => !grouped.has(name))]];
  return lines([
    'Type a message and the agent works on it; the session continues across messages.',
    '',
    bold('Examples'),
    ...examples.map(([example, what]) => rich`${code(example)}\n    ${what}`),
    '',
    bold('Commands'),
    ...groups.flatMap(([title, group]) => {
      const theirs = group.filter((name) => names.has(name));
      return theirs.length ? [rich`${title}: ${theirs.map((name) => `/${name}`).join(' ')}`] : [];
    }),
    'Buttons: /press <n> presses the one printed as [n].',
    rich`${code('/help <command>')} shows a command's options, e.g. ${code('/help spawn')}.`,
  ]);
}
