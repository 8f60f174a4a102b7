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
