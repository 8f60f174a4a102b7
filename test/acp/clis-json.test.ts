import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';

// An agent of BRIDGE_DATA_DIR/clis.json that cannot be one stops the bridge's start in one line
// naming it, as every configuration error does (exit 78: fix the setup, do not restart).
it('a bad clis.json entry stops the start in one line naming it (exit 78)', async () => {
  const data = await tempDir('clis-json-');
  try {
    await writeFile(join(data.path, 'clis.json'), JSON.stringify({ kimi: { command: 'kimi', args: '--acp' } }));
    const bridge = startBridgeProcess({ BRIDGE_DATA_DIR: data.path, TELEGRAM_BOT_TOKEN: '123456:' + 'A'.repeat(35) });
    expect((await bridge.exited).code).toBe(78);
    expect(bridge.stderr().trim().split('\n')).toEqual([expect.stringMatching(/clis\.json: "kimi": .*args/)]);
  } finally {
    await data.remove();
  }
});
