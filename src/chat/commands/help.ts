import { asWritten } from '../../kernel/ports/capabilities.ts';
import type { AgentCommand } from '../../kernel/protocols/index.ts';
import { bold, code, lines, plain, rich, type RichText } from '../../kernel/rich/index.ts';
import { CONSOLE } from '../../kernel/known-transports.ts';
import { askedWith, type Command, type CommandContext } from '../dispatch/command.ts';
import { covers } from '../people/roles.ts';

/** What the first messages of a chat can look like: a task, a background run, a move, a plan. */
const EXAMPLES: [string, string][] = [
  ['Why does npm test fail? Fix it.', 'a task for the agent, in plain words'],
  ['/spawn --label Docs "write the install section of the README"', 'the same in the background; its result is announced here'],
  ['/cd ../other-project', 'work in another directory (within BRIDGE_PROJECT_ROOTS)'],
  ['/orchestrate tests: write tests for src/app/create-app.ts\nfix <- tests: make them pass', 'a plan of steps, each after the ones it names'],
];

/**
 * Every command this person may use (/help shows nobody what they would be refused), its usage
 * and description, after an introduction and examples (the console's: grouped, see
 * consoleHelp), each command written as the chat's app has people write it.
 */
function helpText({ bot, chat, message }: Pick<CommandContext, 'bot' | 'chat' | 'message'>, intro?: string): RichText {
  const role = bot.allowlist.roleOf(chat.address, message.user);
  const commands = bot.commands.filter((command) => covers(role, askedWith(command, '').access));
  if (chat.address.transport === CONSOLE) return consoleHelp(commands);
  const prefix = bot.out.capabilities(chat.address);
  return lines([
    intro ?? 'Send any text and the agent works on it in this chat; the session continues across messages.',
    '',
    bold('Examples'),
    ...EXAMPLES.map(([example, what]) => rich`${code(asWritten(example, prefix))}\n    ${what}`),
    '',
    bold('Commands'),
    ...commands.map((c) => rich`${asWritten(c.usage, prefix)}\n    ${c.description}`),
  ]);
}

/** The agent's own slash commands (an ACP agent's, once its process listed them), which the chat passes through to it. */
function agentCommandsText(cli: string, commands: readonly AgentCommand[], prefix: { commandPrefix?: string }): RichText | undefined {
  if (!commands.length) return undefined;
  return lines([
    bold(`${cli}'s own commands`),
    plain('Sent to the agent as they are, where the bridge has no command of that name.'),
    ...commands.map((c) => rich`${asWritten(`/${c.name}${c.hint ? ` ${c.hint}` : ''}`, prefix)}\n    ${c.description}`),
  ]);
}

export const start: Command = {
  name: 'start',
  description: 'What this bot does and how to use it',
  usage: '/start',
  async run(ctx) {
    const cli = [...ctx.bot.config.adapters.keys()].join(', ');
    return helpText(
      ctx,
      `👋 This bot runs coding agents (${cli}) for you. Send a message and the agent works on it; progress shows live and the answer arrives here.`,
    );
  },
};

export const help: Command = {
  name: 'help',
  description: 'Commands and examples; with a command, its options',
  usage: '/help [command]',
  async run(ctx) {
    const { bot, chat, reply } = ctx;
    const asked = ctx.args.trim().replace(/^\//, '').toLowerCase();
    const capabilities = bot.out.capabilities(chat.address);
    if (!asked) {
      await reply(helpText(ctx));
      // A message of their own: the bridge's list alone fills a message of the smallest apps.
      const own = agentCommandsText(chat.adapter.name, chat.agent.agentCommands, capabilities);
      if (own) await reply(own);
      return;
    }
    const command = bot.commands.find((c) => c.name === asked);
    return command
      ? rich`${asWritten(command.usage, capabilities)}\n    ${command.description}`
      : plain(asWritten(`There is no /${asked}: /help lists the commands.`, capabilities));
  },
};

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

function consoleHelp(commands: readonly Command[]): RichText {
  const names = new Set(commands.map((c) => c.name).filter((name) => !CHAT_APPS_ONLY.has(name) && name !== 'help'));
  const grouped = new Set(GROUPS.flatMap(([, group]) => group));
  const groups: [string, string[]][] = [...GROUPS, ['More', [...names].filter((name) => !grouped.has(name))]];
  return lines([
    'Type a message and the agent works on it; the session continues across messages.',
    '',
    bold('Examples'),
    ...EXAMPLES.map(([example, what]) => rich`${code(example)}\n    ${what}`),
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
