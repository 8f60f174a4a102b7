import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../support/fake-cli.ts';
import { processesMarkedWith, processesUnder } from '../support/process-tree.ts';
import { sessionsStored } from '../support/stored-sessions.ts';
import { ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A bridge serving a chat app leaves nothing running behind it, however it is stopped: every
// CLI it started, and whatever those started, is gone by the time it has exited.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -320;
const { say, waitText } = ownerIn(() => world!, CHAT, 30_000);
const texts = () => world!.telegram.botMessages(CHAT).map(shownText);
/** Waits until the fake CLI hangs in `count` processes (all their lines written). */
const hanging = (count: number) => expect.poll(() => world!.cli.hanging().then((pids) => pids.length), { timeout: 30_000 }).toBe(count);

/** A turn whose CLI ignores SIGTERM and left a `sleep 600` in its group, and a run that ignores SIGTERM: the processes under the bridge. */
async function stubbornWork(): Promise<number[]> {
  say('/spawn "ignore-term hang"');
  await hanging(1);
  say('ignore-term grandchild hang');
  await hanging(2);
  await sessionsStored(world!.dataDir, 1);
  const tree = processesUnder(world!.bridge.pid);
  expect(tree.filter((row) => row.args === 'sleep 600')).toHaveLength(1);
  return tree.map((row) => row.pid);
}

/** The second signal, once the first's forwarded copy (npm start) could no longer come. */
async function again(signal: NodeJS.Signals, firstAt: number): Promise<void> {
  await expect.poll(() => Date.now() - firstAt, { interval: 100, timeout: 5000 }).toBeGreaterThan(1100);
  world!.bridge.kill(signal);
}

/** Nothing the bridge started is alive once it has exited: not its tree, not anything with its data directory's mark. */
function nothingLeft(tree: number[]): void {
  expect(tree.filter(alive)).toEqual([]);
  expect(processesMarkedWith(world!.dataDir)).toEqual([]);
}

describe('leaving at once', () => {
  it('on a second SIGTERM, ends every CLI process group (SIGKILL for those that ignore SIGTERM) before it exits; the turn resumes at the next start', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '60' });
    const tree = await stubbornWork();
    world.bridge.kill('SIGTERM');
    const firstAt = Date.now();
    await waitText(/🔄 The bridge is restarting: this turn has 1:00 to finish/);
    await again('SIGTERM', firstAt);
    expect(await world.bridge.exited).toMatchObject({ code: 130 });
    nothingLeft(tree);
    await world.restart();
    await waitText(/^↻ Resuming after the restart: “ignore-term grandchild hang”$/);
  });

  it('on Ctrl-C twice (SIGINT), tells the chat the bridge stops, not that it restarts, and leaves nothing running', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '60' });
    const tree = await stubbornWork();
    world.bridge.kill('SIGINT');
    const firstAt = Date.now();
    await waitText(/⏸ The bridge is stopping: this turn has 1:00 to finish, or it goes on when the bridge next starts\./);
    say('one more thing');
    await waitText(/^⏸ The bridge is stopping: your message is kept, and runs when the bridge next starts\.$/);
    await again('SIGINT', firstAt);
    expect(await world.bridge.exited).toMatchObject({ code: 130 });
    nothingLeft(tree);
    expect(texts().filter((text) => /restart/i.test(text))).toEqual([]);
  });
});

describe('leaving after the drain', () => {
  it('stops what is still at work when the drain ends, and exits with nothing left running', async () => {
    world = await startTelegramWorld({ BRIDGE_DRAIN_SECONDS: '1' });
    const tree = await stubbornWork();
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    nothingLeft(tree);
  });
});
