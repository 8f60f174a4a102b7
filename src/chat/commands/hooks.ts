import { hookList } from '../../work/presentation/hooks.ts';
import type { Command } from '../dispatch/command.ts';

/** /hooks: the webhooks whose turns and runs come to this chat, with their URLs; never their secrets. */
export const hooks: Command = {
  name: 'hooks',
  description: 'List the webhooks that start work in this chat, with their URLs',
  usage: '/hooks',
  async run(ctx) {
    const { hooks: directory } = ctx.services;
    return hookList(directory.forChat(ctx.chat.address), directory);
  },
};
