import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/bridge-process.ts';
import { CLI_BINARIES, prepareCliEnv } from '../support/cli-env.ts';
import { alive } from '../support/fake-cli.ts';
import { shellToolCall, startMockModel } from '../support/mock-model/index.ts';
import { processesMarkedWith, processesUnder, type ProcessRow } from '../support/process-tree.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';
import { startConsoleInTerminal } from '../support/terminal.ts';

// Leaving at once with the real claude at work in a tool call: claude and the command it runs
// are gone by the time the bridge has exited, in a chat app's bridge and in the console.
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** The model has claude run a command that never ends by itself (claude refuses a long `sleep`). */
const ENDLESS = () => ({ toolCalls: [shellToolCall('claude', 'tail -f /dev/null')] });

/** Waits until the command claude runs is under `root`; returns the tree then. */
async function runningUnder(root: () => number): Promise<ProcessRow[]> {
  await expect.poll(() => processesUnder(root()).some((row) => row.args === 'tail -f /dev/null'), { timeout: 40_000, interval: 200 }).toBe(true);
  const tree = processesUnder(root());
  expect(tree.some((row) => row.args.includes('claude'))).toBe(true);
  return tree;
}

/** Waits out the second that counts a forwarded copy of the first signal as the same. */
const pastTheFirst = (firstAt: number) => expect.poll(() => Date.now() - firstAt, { interval: 100, timeout: 5000 }).toBeGreaterThan(1100);

describe('leaving at once with the real claude at work', () => {
  it('a chat app’s bridge, SIGTERM twice: claude and its command are gone when the bridge has exited', async () => {
    const real: RealCliWorld = await startRealCliWorld('claude', ENDLESS, { BRIDGE_DRAIN_SECONDS: '60' });
    cleanups.push(() => real.stop());
    const { world } = real;
    const { say, waitText } = ownerIn(() => world, OWNER, 60_000);
    say('run the long command');
    const tree = await runningUnder(() => world.bridge.pid);
    world.bridge.kill('SIGTERM');
    const firstAt = Date.now();
    await waitText(/🔄 The bridge is restarting: this turn has 1:00 to finish/);
    await pastTheFirst(firstAt);
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 130 });
    expect(tree.filter((row) => alive(row.pid))).toEqual([]);
    expect(processesMarkedWith(world.dataDir)).toEqual([]);
  }, 180_000);

  it('the console, Ctrl-C twice in its terminal: said at once, and claude and its command are gone when it has exited', async () => {
    const mock = await startMockModel({ script: ENDLESS });
    const cliEnv = await prepareCliEnv('claude', mock.url);
    const data = await tempDir('leaving-claude-data-');
    cleanups.push(
      () => mock.close(),
      () => cliEnv.cleanup(),
      () => data.remove(),
    );
    const terminal = startConsoleInTerminal({
      ...cliEnv.env,
      BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
      BRIDGE_DATA_DIR: data.path,
      BRIDGE_WORKDIR: cliEnv.workdir,
      BRIDGE_DRAIN_SECONDS: '60',
      TELEGRAM_BOT_TOKEN: '',
    });
    cleanups.push(async () => {
      terminal.kill();
      await terminal.exited;
    });
    await terminal.waitFor(/Type a message, or \/help/, 60_000);
    terminal.type('run the long command\r');
    const tree = await runningUnder(() => terminal.pid);
    terminal.type('\x03');
    const firstAt = Date.now();
    await terminal.waitFor(/Leaving: waiting up to 60 s for your turn to finish, or it goes on at the next start\. Ctrl-C again to leave now\.\n/, 5000);
    await pastTheFirst(firstAt);
    terminal.type('\x03');
    expect(await terminal.exited).toBe(130);
    expect(tree.filter((row) => alive(row.pid))).toEqual([]);
    expect(processesMarkedWith(data.path)).toEqual([]);
    expect(terminal.text()).not.toMatch(/restarting/);
  }, 180_000);
});
