import { afterEach, describe, expect, it } from 'vitest';
import { buildArgv, buildLiveArgv } from '../../src/engine/adapters/argv.ts';
import { lowerWalls, raiseWalls } from '../../src/engine/sandbox/walls.ts';
import { realAdapter } from '../support/real-adapters.ts';

// One layer of sandbox: in the bridge's walls each CLI is told to leave its own off (it would
// nest in ours, where codex's bubblewrap fails), as its adapter says; out of them, nothing changes.
afterEach(() => lowerWalls());

function wallsUpForArgv(): void {
  raiseWalls(
    { on: true, why: 'test', uid: { uid: 1000, gid: 1000, home: '/home/agent' }, bwrap: 'bwrap', socat: 'socat' },
    { homes: '/nonexistent', sockets: '/nonexistent' },
  );
}

const CLAUDE_SANDBOX_OFF = ['--settings', '{"sandbox":{"enabled":false}}'];

describe('one layer of sandbox', () => {
  it('codex runs without its own sandbox in walls, in bypass and in safe (ours makes safe read-only)', async () => {
    const codex = await realAdapter('codex');
    expect(buildArgv(codex, { prompt: 'hi' })).toEqual(expect.arrayContaining(['-s', 'workspace-write']));
    expect(buildArgv(codex, { prompt: 'hi', permissions: 'safe' })).toEqual(expect.arrayContaining(['-s', 'read-only']));
    wallsUpForArgv();
    for (const permissions of [undefined, 'safe'] as const) {
      const argv = buildArgv(codex, { prompt: 'hi', ...(permissions ? { permissions } : {}) });
      expect(argv.filter((arg, i) => argv[i - 1] === '-s')).toEqual(['danger-full-access']);
    }
  });

  it('claude is given settings that turn its own sandbox off in walls, whether it runs a turn or stays up', async () => {
    const claude = await realAdapter('claude');
    expect(buildArgv(claude, { prompt: 'hi' }).join(' ')).not.toContain('--settings');
    wallsUpForArgv();
    const argv = buildArgv(claude, { prompt: 'hi' });
    expect(argv.slice(argv.indexOf('--settings'), argv.indexOf('--settings') + 2)).toEqual(CLAUDE_SANDBOX_OFF);
    expect(argv.slice(-3)).toEqual(['-p', '--', 'hi']);
    const live = buildLiveArgv(claude, {});
    expect(live.slice(live.indexOf('--settings'), live.indexOf('--settings') + 2)).toEqual(CLAUDE_SANDBOX_OFF);
  });
});
