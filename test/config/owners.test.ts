import { describe, expect, it } from 'vitest';
import { Allowlist } from '../../src/chat/people/allowlist.ts';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';
import { tempDir } from '../support/bridge-process.ts';
import { chat, user } from '../support/chats.ts';
import { testConfig } from '../support/test-config.ts';

const configWith = async (env: Record<string, string>) => {
  const dir = await tempDir('owners-');
  try {
    return await testConfig({ dataDir: dir.path, workdir: dir.path, env });
  } finally {
    await dir.remove();
  }
};

describe('the owners', () => {
  it('are the first of BRIDGE_ALLOWED_USERS unless BRIDGE_OWNERS names them', async () => {
    expect((await configWith({ BRIDGE_ALLOWED_USERS: '111,222' })).owners).toEqual(['telegram:111']);
    expect((await configWith({ BRIDGE_ALLOWED_USERS: '111,222', BRIDGE_OWNERS: '222, telegram:333' })).owners).toEqual(['telegram:222', 'telegram:333']);
    await expect(configWith({ BRIDGE_ALLOWED_USERS: '111', BRIDGE_OWNERS: '222,someone' })).rejects.toThrow(
      new ConfigError('BRIDGE_OWNERS: expected comma-separated user ids (numbers, or transport:id), got "someone"'),
    );
  });

  it('are each an owner, and allowed even when BRIDGE_ALLOWED_USERS leaves them out', async () => {
    const config = await configWith({ BRIDGE_ALLOWED_USERS: '111,222', BRIDGE_OWNERS: '222,333' });
    const list = new Allowlist({ allowedUsers: config.allowedUsers, bareNumbers: config.bareNumbers, owners: config.owners, admins: config.admins });
    const here = chat(-1);
    expect([111, 222, 333, 444].map((id) => [list.isAllowed(here, user(id)), list.isOwner(here, user(id))])).toEqual([
      [true, false],
      [true, true],
      [true, true],
      [false, false],
    ]);
  });
});

describe('the admins', () => {
  it('are read from BRIDGE_ADMINS, allowed whether or not BRIDGE_ALLOWED_USERS names them, and each person has one role', async () => {
    const config = await configWith({ BRIDGE_ALLOWED_USERS: '111,222', BRIDGE_ADMINS: '333, slack:U024BE7LH' });
    expect(config.admins).toEqual(['telegram:333', 'slack:U024BE7LH']);
    const list = new Allowlist({ allowedUsers: config.allowedUsers, bareNumbers: config.bareNumbers, owners: config.owners, admins: config.admins });
    const here = chat(-1);
    expect([111, 222, 333, 444].map((id) => (list.isAllowed(here, user(id)) ? list.roleOf(here, user(id)) : 'refused'))).toEqual([
      'owner',
      'member',
      'admin',
      'refused',
    ]);
    await expect(configWith({ BRIDGE_ALLOWED_USERS: '111', BRIDGE_ADMINS: 'someone' })).rejects.toThrow(/BRIDGE_ADMINS/);
  });
});

describe('BRIDGE_GROUP_TURNS', () => {
  it('is everyone by default, or allowed; anything else stops the start naming both', async () => {
    expect((await configWith({ BRIDGE_ALLOWED_USERS: '111' })).groupTurns).toBe('everyone');
    expect((await configWith({ BRIDGE_ALLOWED_USERS: '111', BRIDGE_GROUP_TURNS: ' Allowed ' })).groupTurns).toBe('allowed');
    await expect(configWith({ BRIDGE_ALLOWED_USERS: '111', BRIDGE_GROUP_TURNS: 'admins' })).rejects.toThrow(
      new ConfigError(
        'BRIDGE_GROUP_TURNS: expected everyone (anyone allowed who is in the group) or allowed (only those an admin named with /allow), got "admins"',
      ),
    );
  });
});
