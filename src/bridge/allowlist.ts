import { userKey, type ChatRef, type ChatUser } from '../ports/transport.ts';
import type { Role } from './roles.ts';

/**
 * Who may use the bridge, and as what: the people of BRIDGE_ALLOWED_USERS, the admins
 * (BRIDGE_ADMINS) and the owners (BRIDGE_OWNERS, by default the first of BRIDGE_ALLOWED_USERS), and on
 * the transport that trusts everyone (the console) its one person at the keyboard, wherever
 * they write from. Read on every message and press, and by the web pages on every call.
 */
export class Allowlist {
  constructor(
    private readonly allowed: readonly string[],
    /** The transport whose one user is the owner at the keyboard; none: the list decides. */
    private readonly trustEveryoneOn: string | undefined,
    /** The transport whose ids people write bare (BRIDGE_ALLOWED_USERS' bare numbers). */
    private readonly bareNumbers: string,
    private readonly owners: readonly string[] = allowed.slice(0, 1),
    /** BRIDGE_ADMINS: allowed whether or not BRIDGE_ALLOWED_USERS names them. */
    private readonly admins: readonly string[] = [],
  ) {}

  /** Whether this user, writing in this chat, may use the bridge. */
  isAllowed(chat: ChatRef, user: ChatUser): boolean {
    const key = userKey(chat.transport, user);
    return this.trusted(key) || this.allowed.includes(key) || this.owners.includes(key) || this.admins.includes(key);
  }

  /** What an allowed person is to the bridge (someone not allowed is refused before this is asked). */
  roleOf(chat: ChatRef, user: ChatUser): Role {
    if (this.isOwner(chat, user)) return 'owner';
    return this.admins.includes(userKey(chat.transport, user)) ? 'admin' : 'member';
  }

  /** An owner: one of BRIDGE_OWNERS (by default the first id in BRIDGE_ALLOWED_USERS), or the console's one user. Only they decide what the bridge trusts. */
  isOwner(chat: ChatRef, user: ChatUser): boolean {
    const key = userKey(chat.transport, user);
    return this.trusted(key) || this.owners.includes(key);
  }

  /** The user's id as the owner writes it in BRIDGE_ALLOWED_USERS: bare on the transport whose ids are bare numbers. */
  writtenId(chat: ChatRef, user: ChatUser): string {
    return chat.transport === this.bareNumbers ? user.id : userKey(chat.transport, user);
  }

  private trusted(key: string): boolean {
    return this.trustEveryoneOn !== undefined && key.startsWith(`${this.trustEveryoneOn}:`);
  }
}
