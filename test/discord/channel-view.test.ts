import { describe, expect, it } from 'vitest';
import { canViewChannel, type ViewQuestion } from '../../src/transports/discord/channel-view.ts';

const VIEW = String(1 << 10);
const ADMIN = String(1 << 3);
const base: ViewQuestion = {
  guildId: 'g',
  ownerId: 'owner',
  roles: [
    { id: 'g', permissions: VIEW },
    { id: 'leads', permissions: '0' },
    { id: 'admins', permissions: ADMIN },
  ],
  memberRoles: [],
  userId: 'ada',
  overwrites: [],
};

describe('who sees a server channel', () => {
  it('is everyone by default, unless the channel denies @everyone; a role allowed sees it again, a member denied does not', () => {
    expect(canViewChannel(base)).toBe(true);
    const leadsOnly = {
      ...base,
      overwrites: [
        { id: 'g', type: 0, allow: '0', deny: VIEW },
        { id: 'leads', type: 0, allow: VIEW, deny: '0' },
      ],
    };
    expect(canViewChannel(leadsOnly)).toBe(false);
    expect(canViewChannel({ ...leadsOnly, memberRoles: ['leads'] })).toBe(true);
    expect(
      canViewChannel({ ...leadsOnly, memberRoles: ['leads'], overwrites: [...leadsOnly.overwrites, { id: 'ada', type: 1, allow: '0', deny: VIEW }] }),
    ).toBe(false);
  });

  it('is always the owner and administrators', () => {
    const closed = { ...base, overwrites: [{ id: 'g', type: 0, allow: '0', deny: VIEW }] };
    expect(canViewChannel({ ...closed, userId: 'owner' })).toBe(true);
    expect(canViewChannel({ ...closed, memberRoles: ['admins'] })).toBe(true);
  });
});
