/** Permission bits that decide who sees a channel. */
const ADMINISTRATOR = 1n << 3n;
const VIEW_CHANNEL = 1n << 10n;

interface Overwrite {
  id: string;
  /** 0: a role's; 1: a member's. */
  type: number;
  allow: string;
  deny: string;
}

export interface ViewQuestion {
  guildId: string;
  ownerId: string;
  /** The server's roles with their permissions (@everyone's id is the server's). */
  roles: readonly { id: string; permissions: string }[];
  /** The person's roles. */
  memberRoles: readonly string[];
  userId: string;
  overwrites: readonly Overwrite[];
}

/**
 * Whether a server's member sees a channel, computed as Discord computes it: the owner and
 * administrators see everything; otherwise @everyone's and their roles' permissions, then
 * the channel's overwrites for @everyone, for their roles, and for them, each denying and then
 * allowing.
 */
export function canViewChannel({ guildId, ownerId, roles, memberRoles, userId, overwrites }: ViewQuestion): boolean {
  if (userId === ownerId) return true;
  const permissionsOf = (id: string) => BigInt(roles.find((role) => role.id === id)?.permissions ?? '0');
  let permissions = permissionsOf(guildId);
  for (const role of memberRoles) permissions |= permissionsOf(role);
  if (permissions & ADMINISTRATOR) return true;
  const apply = (found: readonly Overwrite[]) => {
    let deny = 0n;
    let allow = 0n;
    for (const overwrite of found) {
      deny |= BigInt(overwrite.deny);
      allow |= BigInt(overwrite.allow);
    }
    permissions = (permissions & ~deny) | allow;
  };
  apply(overwrites.filter((o) => o.type === 0 && o.id === guildId));
  apply(overwrites.filter((o) => o.type === 0 && memberRoles.includes(o.id)));
  apply(overwrites.filter((o) => o.type === 1 && o.id === userId));
  return (permissions & VIEW_CHANNEL) !== 0n;
}
