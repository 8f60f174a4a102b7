/**
 * What a person is to the bridge: an owner (BRIDGE_OWNERS: trust, the bridge's settings,
 * every chat), an admin (BRIDGE_ADMINS: the modes, agents and schedules of the chats they are
 * in), or a member (everyone else allowed: they talk, spawn, and stop and merge their own runs).
 */
export type Role = 'member' | 'admin' | 'owner';

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** Whether `role` may do what `needed` may. */
export function covers(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** A person of this role, in a sentence: "an owner", "an admin", "a member". */
export function aRole(role: Role): string {
  return role === 'member' ? 'a member' : `an ${role}`;
}

/** Who a role is, as a refusal names them. */
export function roleNamed(role: Role): string {
  if (role === 'owner') return 'an owner (BRIDGE_OWNERS, by default the first id in BRIDGE_ALLOWED_USERS)';
  if (role === 'admin') return 'an admin (BRIDGE_ADMINS) or an owner';
  return 'a member (BRIDGE_ALLOWED_USERS)';
}
