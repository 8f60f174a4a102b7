import type { ChatPeople } from '../../work/access/chat-people.ts';
import type { PeopleSettings } from './people-settings.ts';
import { userKey, type ChatRef, type ChatUser } from '../../kernel/ports/chat.ts';
import type { Role } from './roles.ts';

/** BRIDGE_ALLOWED_USERS, BRIDGE_OWNERS (by default the first allowed), BRIDGE_ADMINS and BRIDGE_GROUP_TURNS, as read (see PeopleSettings). */
export interface AllowlistOptions
  extends Pick<PeopleSettings, 'allowedUsers' | 'owners' | 'admins' | 'bareNumbers'>, Partial<Pick<PeopleSettings, 'groupTurns'>> {
  /** The transport whose one user is the owner at the keyboard (the console); none: the lists decide. */
  trustEveryoneOn?: string | undefined;
  /** What admins said of people per chat (/allow, /deny); none: only the lists decide. */
  people?: Pick<ChatPeople, 'standing' | 'allowedAnywhere'>;
}

/**
 * Who may use the bridge, where, and as what: the people of BRIDGE_ALLOWED_USERS, the admins
 * (BRIDGE_ADMINS) and the owners (BRIDGE_OWNERS, by default the first of BRIDGE_ALLOWED_USERS),
 * with what a chat's admins said of people there (/allow lets someone in, /deny keeps someone
 * out, owners excepted); and on the transport that trusts everyone (the console) its one person
 * at the keyboard. Read on every message and press, and by the web pages on every call.
 */
export class Allowlist {
  constructor(private readonly options: AllowlistOptions) {}

  /** Whether this user, writing in this chat, may use the bridge. */
  isAllowed(chat: ChatRef, user: ChatUser): boolean {
    const key = userKey(chat.transport, user);
    if (this.ownerKey(key)) return true;
    const said = this.options.people?.standing(chat, key);
    if (said) return said.is === 'allowed';
    return this.listed(key);
  }

  /** Whether this person may use the bridge in some chat: the web pages let them in, and show them those chats. */
  isAllowedAnywhere(person: string): boolean {
    return this.ownerKey(person) || this.listed(person) || this.options.people?.allowedAnywhere(person) === true;
  }

  /**
   * Whether this allowed person may start turns (and other work for the agent) in this chat: in
   * a group where BRIDGE_GROUP_TURNS is `allowed`, only those an admin named with /allow, and
   * the admins and owners; anywhere else, anyone allowed.
   */
  mayStartTurns(chat: ChatRef, user: ChatUser, inGroup: boolean): boolean {
    if (!inGroup || this.options.groupTurns !== 'allowed') return true;
    const key = userKey(chat.transport, user);
    return this.ownerKey(key) || this.options.admins.includes(key) || this.options.people?.standing(chat, key)?.is === 'allowed';
  }

  /** What an allowed person is to the bridge (someone not allowed is refused before this is asked). */
  roleOf(chat: ChatRef, user: ChatUser): Role {
    if (this.isOwner(chat, user)) return 'owner';
    return this.options.admins.includes(userKey(chat.transport, user)) ? 'admin' : 'member';
  }

  /** An owner: one of BRIDGE_OWNERS (by default the first id in BRIDGE_ALLOWED_USERS), or the console's one user. Only they decide what the bridge trusts. */
  isOwner(chat: ChatRef, user: ChatUser): boolean {
    return this.ownerKey(userKey(chat.transport, user));
  }

  /** The user's id as the owner writes it in BRIDGE_ALLOWED_USERS: bare on the transport whose ids are bare numbers. */
  writtenId(chat: ChatRef, user: ChatUser): string {
    return chat.transport === this.options.bareNumbers ? user.id : userKey(chat.transport, user);
  }

  private listed(key: string): boolean {
    return this.options.allowedUsers.includes(key) || this.options.admins.includes(key);
  }

  private ownerKey(key: string): boolean {
    const console = this.options.trustEveryoneOn;
    return (console !== undefined && key.startsWith(`${console}:`)) || this.options.owners.includes(key);
  }
}
