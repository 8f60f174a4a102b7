import { bold, lines, rich, type RichText } from '../../rich/index.ts';
import type { Command } from './command.ts';

/** Every command's usage and description, after an introduction. */
export function helpText(commands: readonly Command[], intro?: string): RichText {
  const head = intro ?? 'Send any text and the agent works on it in this chat; the session continues across messages.';
  return lines([head, '', bold('Commands'), ...commands.map((c) => rich`${c.usage}\n    ${c.description}`)]);
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
