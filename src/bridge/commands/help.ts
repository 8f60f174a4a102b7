import { escapeHtml } from '../../presentation/format/index.ts';
import type { RichText } from '../../ports/transport.ts';
import type { Command } from './command.ts';

/** Every command's usage and description, after an introduction. */
export function helpText(commands: readonly Command[], intro?: string): RichText {
  const lines = commands.map((c) => ({ html: `${escapeHtml(c.usage)}\n    ${escapeHtml(c.description)}`, plain: `${c.usage}\n    ${c.description}` }));
  const head = intro ?? 'Send any text and the agent works on it in this chat; the session continues across messages.';
  return {
    html: `${escapeHtml(head)}\n\n<b>Commands</b>\n${lines.map((l) => l.html).join('\n')}`,
    plain: `${head}\n\nCommands\n${lines.map((l) => l.plain).join('\n')}`,
  };
}

export const start: Command = {
  name: 'start',
  description: 'What this bot does and how to use it',
  usage: '/start',
  access: 'allowed',
  async run({ bridge, reply }) {
    const cli = [...bridge.config.adapters.keys()].join(', ');
    await reply(
      helpText(
        bridge.commands,
        `👋 This bot runs coding agents (${cli}) for you. Send a message and the agent works on it; progress shows live and the answer arrives here.`,
      ),
    );
  },
};

export const help: Command = {
  name: 'help',
  description: 'Commands and examples',
  usage: '/help',
  access: 'allowed',
  async run({ bridge, reply }) {
    await reply(helpText(bridge.commands));
  },
};
