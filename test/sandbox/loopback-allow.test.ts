import { describe, expect, it } from 'vitest';
import { AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { cannotWall } from './walls-support.ts';

// A loopback entry in BRIDGE_SANDBOX_ALLOW is the walls' own loopback: the start says so, once
// for each, naming what to write instead, rather than letting the agent find nothing there.
const cannot = cannotSwitchUser() ?? cannotWall();

describe.skipIf(cannot)(`BRIDGE_SANDBOX_ALLOW with loopback entries, the walls up (${cannot ?? AGENT_USER})`, () => {
  it("warns at start for each, naming this machine's address instead, and for no other entry", async () => {
    const data = await tempDir('loopback-allow-');
    try {
      const bridge = startBridgeProcess(
        {
          BRIDGE_DATA_DIR: data.path,
          BRIDGE_SANDBOX: 'bwrap',
          BRIDGE_AGENT_USER: AGENT_USER,
          BRIDGE_SANDBOX_ALLOW: '127.0.0.1:5432,localhost,db.example.com:5432',
        },
        ['--console'],
        '',
      );
      expect((await bridge.exited).code).toBe(0);
      const warnings = bridge
        .logEntries()
        .filter((entry) => entry.level === 'warn' && entry.msg.startsWith('BRIDGE_SANDBOX_ALLOW'))
        .map((entry) => entry.msg);
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(
        /^BRIDGE_SANDBOX_ALLOW: 127\.0\.0\.1:5432 is the sandbox's own loopback, not this machine's, so its agents never reach a service there; write this machine's address instead \((\d+\.\d+\.\d+\.\d+|\[[0-9a-f:]+\]|this machine's address):5432\), and have the service listen on it$/,
      );
      expect(warnings[1]).toMatch(/^BRIDGE_SANDBOX_ALLOW: localhost is the sandbox's own loopback/);
    } finally {
      await data.remove();
    }
  });
});
