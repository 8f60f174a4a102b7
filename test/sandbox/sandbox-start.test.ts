import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';

describe('BRIDGE_SANDBOX at start', () => {
  it('a wrong value stops the start with one line naming it, and status 78', async () => {
    const data = await tempDir('sandbox-data-');
    const bridge = startBridgeProcess({ BRIDGE_SANDBOX: 'docker', BRIDGE_DATA_DIR: data.path }, ['--console']);
    expect(await bridge.exited).toMatchObject({ code: 78 });
    expect(bridge.stderr().trim()).toBe(
      'jsonl-bridge: BRIDGE_SANDBOX: expected off, bwrap (every CLI in a bubblewrap sandbox, or no start) or auto (the sandbox where it can run), got "docker"',
    );
    await data.remove();
  });

  it.skipIf(cannotSwitchUser())(
    `bwrap where bubblewrap cannot run stops the start in one line naming what is missing, status 78 (${cannotSwitchUser() ?? AGENT_USER})`,
    async () => {
      const data = await tempDir('sandbox-data-');
      // A PATH with node and getent, and no bubblewrap or socat.
      const bin = join(data.path, 'bin');
      await mkdir(bin);
      await symlink(process.execPath, join(bin, 'node'));
      await symlink('/usr/bin/getent', join(bin, 'getent'));
      const bridge = startBridgeProcess({ BRIDGE_SANDBOX: 'bwrap', BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_DATA_DIR: join(data.path, 'data'), PATH: bin }, [
        '--console',
      ]);
      expect(await bridge.exited).toMatchObject({ code: 78 });
      expect(bridge.stderr().trim()).toBe(
        'jsonl-bridge: BRIDGE_SANDBOX=bwrap: bwrap (apt-get install bubblewrap) and socat (apt-get install socat) not found on PATH',
      );
      await data.remove();
    },
  );

  it('auto as root with no agent user stops the start in one line saying what to type (its CLIs would run as root unwalled), status 78; off starts', async () => {
    if (process.getuid?.() !== 0) return;
    const data = await tempDir('sandbox-data-');
    const bridge = startBridgeProcess({ BRIDGE_SANDBOX: 'auto', BRIDGE_DATA_DIR: data.path }, ['--console']);
    expect(await bridge.exited).toMatchObject({ code: 78 });
    expect(bridge.stderr().trim()).toBe(
      'jsonl-bridge: the bridge runs as root with no BRIDGE_AGENT_USER, so its CLIs would run as root outside any walls: give them a user of their own, `useradd --create-home jsonl-agent && BRIDGE_AGENT_USER=jsonl-agent npm start` (it needs write access to your projects: docs/agent-user.md), or start with BRIDGE_SANDBOX=off to run them as root unwalled',
    );
    // The operator who says so runs them unwalled: the console comes up.
    const off = startBridgeProcess({ BRIDGE_SANDBOX: 'off', BRIDGE_DATA_DIR: data.path }, ['--console']);
    await off.waitForLog(/jsonl-bridge console: claude/, 60_000);
    off.kill('SIGKILL');
    await off.exited;
    await data.remove();
  });

  it('bwrap as root with no agent user stops the start, naming BRIDGE_AGENT_USER', async () => {
    if (process.getuid?.() !== 0) return;
    const data = await tempDir('sandbox-data-');
    const bridge = startBridgeProcess({ BRIDGE_SANDBOX: 'bwrap', BRIDGE_DATA_DIR: data.path }, ['--console']);
    expect(await bridge.exited).toMatchObject({ code: 78 });
    expect(bridge.stderr().trim()).toBe(
      'jsonl-bridge: BRIDGE_SANDBOX=bwrap: the bridge runs as root and no BRIDGE_AGENT_USER is set (a sandbox as root still reads what root may; set BRIDGE_AGENT_USER)',
    );
    await data.remove();
  });
});
