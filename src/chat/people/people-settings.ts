import { BARE_NUMBERS } from '../../kernel/known-transports.ts';
import { qualifiedId } from '../../kernel/ports/chat.ts';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { oneOf } from '../../kernel/settings/variables.ts';

/** Who may use the bot, and as what. */
export interface PeopleSettings {
  /** BRIDGE_ALLOWED_USERS, each `transport:id` (a bare number written: the `bareNumbers` transport's). */
  allowedUsers: string[];
  /** BRIDGE_OWNERS, written the same way; by default the first of BRIDGE_ALLOWED_USERS. They decide what the bridge trusts, and see every chat on the web pages. */
  owners: string[];
  /** BRIDGE_ADMINS, written the same way: they manage the chats they are in (modes, agents, schedules, others' runs, who is allowed there). */
  admins: string[];
  /** BRIDGE_GROUP_TURNS: in a group, who may start turns: everyone allowed there, or only those an admin named with /allow (and the admins and owners). */
  groupTurns: GroupTurns;
  /** The transport a bare number means where a person writes a chat or user: this configuration's, the API's `chat_id`. */
  bareNumbers: string;
}

export const GROUP_TURNS = ['everyone', 'allowed'] as const;
export type GroupTurns = (typeof GROUP_TURNS)[number];
const GROUP_TURNS_MEANING = 'everyone (anyone allowed who is in the group) or allowed (only those an admin named with /allow)';

export function peopleSettings(env: NodeJS.ProcessEnv): PeopleSettings {
  const allowedUsers = userIds(env, 'BRIDGE_ALLOWED_USERS');
  const owners = userIds(env, 'BRIDGE_OWNERS');
  const admins = userIds(env, 'BRIDGE_ADMINS');
  return {
    allowedUsers,
    owners: owners.length ? owners : allowedUsers.slice(0, 1),
    admins,
    groupTurns: oneOf(env, 'BRIDGE_GROUP_TURNS', GROUP_TURNS, 'everyone', GROUP_TURNS_MEANING),
    bareNumbers: BARE_NUMBERS,
  };
}

function userIds(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = env[name];
  if (!raw?.trim()) return [];
  return raw.split(',').map((part) => {
    const id = qualifiedId(part, BARE_NUMBERS);
    if (!id) throw new ConfigError(`${name}: expected comma-separated user ids (numbers, or transport:id), got "${part.trim()}"`);
    return id;
  });
}
