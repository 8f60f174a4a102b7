import { execa } from 'execa';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/kernel/store/data-lock.ts';
import { startBridgeProcess } from '../support/bridge-process.ts';
import { startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// One bridge per data directory: a second one stops at its start naming the first, and a
// lock whose process was killed is taken over, by one of two starting together.
let dir = '';
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

/** A pid no process has now: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = execa('true');
  await child;
  return child.pid!;
}

describe('the data directory’s lock', () => {
  it('a second bridge on a running one’s data directory stops at once, naming it (pid, since when), with exit 78', async () => {
    world = await startTelegramWorld();
    const second = startBridgeProcess(world.env);
    const { code } = await second.exited;
    expect(code).toBe(78);
    const lines = second.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`in use by another jsonl-bridge \\(pid ${world.bridge.pid}, since \\d{4}-\\d\\d-\\d\\dT`));
    expect(lines[0]).toContain(world.dataDir);
    // The first goes on, and its lock is still its own.
    expect(JSON.parse(await readFile(join(world.dataDir, 'bridge.lock'), 'utf8'))).toMatchObject({ pid: world.bridge.pid });
  });

  it('a bridge killed with SIGKILL leaves a lock the next start takes over', async () => {
    world = await startTelegramWorld();
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    expect(JSON.parse(await readFile(join(world.dataDir, 'bridge.lock'), 'utf8'))).toMatchObject({ pid: world.bridge.pid });
  });

  it('a dead holder’s lock, taken by many at once, goes to exactly one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'data-lock-'));
    const file = join(dir, 'bridge.lock');
    await writeFile(file, JSON.stringify({ pid: await deadPid(), host: hostname(), since: '2026-01-01T00:00:00.000Z' }));
    // Each taker in its own process, as two bridges would be. One that takes the lock holds it
    // until the test lets go, however slowly a loaded machine starts the others.
    const taker = `import { existsSync } from 'node:fs';
      import { lockDataDir } from ${JSON.stringify(new URL('../../src/kernel/store/data-lock.ts', import.meta.url).pathname)};
      try { await lockDataDir(process.argv[1], 'it', 'fix it'); console.log('took'); while (!existsSync(process.argv[1] + '.release')) await new Promise((r) => setTimeout(r, 50)); }
      catch (e) { console.log('refused: ' + e.message); }`;
    let ended = 0;
    const takers = Array.from({ length: 6 }, () => execa('node', ['--import', 'tsx', '--input-type=module', '-e', taker, file]).finally(() => ended++));
    // Five refused, or the wait's end: either way the holders let go, and the counts below say what happened.
    await expect
      .poll(() => ended, { timeout: 30_000 })
      .toBe(5)
      .catch(() => undefined);
    await writeFile(`${file}.release`, '');
    const results = await Promise.all(takers);
    const took = results.filter((r) => r.stdout === 'took');
    expect(took).toHaveLength(1);
    expect(results.filter((r) => r.stdout.startsWith('refused: it is in use by another jsonl-bridge'))).toHaveLength(5);
  });

  it('a pid used again by another process is not the holder', async () => {
    dir = await mkdtemp(join(tmpdir(), 'data-lock-'));
    const file = join(dir, 'bridge.lock');
    // This test's own pid, but a start that is not its own: the holder died, its pid came back.
    await writeFile(file, JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', start: 1 }));
    await lockDataDir(file, 'it', 'fix it');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(JSON.parse(await readFile(file, 'utf8')).start).not.toBe(1);
  });
});
