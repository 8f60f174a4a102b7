import { aRole, type Role } from '../people/roles.ts';
import type { Command } from '../dispatch/command.ts';
import { userKey } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';

/** What each role may do, in a line. */
const MAY: Record<Role, string> = {
  owner: 'trust directories, change the bridge’s settings, and act in every chat',
  admin: 'change the modes, agents and schedules of the chats you are in, and merge, discard or stop anyone’s runs there',
  member: 'talk to the agent, spawn runs, and stop, merge or discard your own',
};

/** Why the bridge takes this person as what it does. */
const WHY: Record<Role, string> = {
  owner: 'BRIDGE_OWNERS names you (or, when it is empty, you are the first id in BRIDGE_ALLOWED_USERS)',
  admin: 'BRIDGE_ADMINS names you',
  member: 'BRIDGE_ALLOWED_USERS names you',
};

export const whoami: Command = {
  name: 'whoami',
  description: 'Who you are to the bridge, and why',
  usage: '/whoami',
  async run({ bot, services, chat, message }) {
    const { user } = message;
    const role = bot.allowlist.roleOf(chat.address, user);
    const id = userKey(chat.address.transport, user);
    const name = user.name ? `${user.name} (${id})` : id;
    const said = services.people.standing(chat.address, id);
    // The console's person is its owner by being at the keyboard, not by a list.
    const listed = bot.config.owners.includes(id) || bot.config.allowedUsers.includes(id) || bot.config.admins.includes(id);
    const why =
      role === 'owner' && !listed
        ? 'you are at this terminal'
        : role === 'member' && said?.is === 'allowed' && !listed
          ? `${said.byName ?? said.by} allowed you in this chat with /allow`
          : WHY[role];
    const lines = [`You are ${name}, ${aRole(role)} here: ${why}.`, `You may ${MAY[role]}.`];
    if (!message.private && bot.config.groupTurns === 'allowed' && role === 'member')
      lines.push(
        said?.is === 'allowed'
          ? 'In this group only the people an admin named with /allow start the agent’s work, and you are one.'
          : 'In this group only the people an admin named with /allow start the agent’s work, and you are not one: you may use the commands that only look.',
      );
    return plain(lines.join('\n'));
  },
};
