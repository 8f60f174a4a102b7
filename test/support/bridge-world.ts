import { chown, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridgeProcess, tempDir, type BridgeProcess, type RunAs } from './bridge-process.ts';
import { fakeCliWorld, type FakeCliWorld } from './fake-cli.ts';

/**
 * The bridge as a real process over the fake CLI, a data and a work directory of its own, and
 * whatever chat apps' twins a world adds: what every world of the tests is built on. `restart`
 * starts a new bridge on the same data; `stop` ends it and removes what the world made.
 */
export interface BridgeWorld {
  cli: FakeCliWorld;
  dataDir: string;
  workdir: string;
  env: Record<string, string>;
  bridge: BridgeProcess;
  restart(signal?: NodeJS.Signals): Promise<BridgeProcess>;
  stop(): Promise<void>;
}

export interface BridgeWorldOptions {
  /** The chat apps' settings (pointing at their twins), and the test's own. */
  env: Record<string, string>;
  /** Until the bridge serves: a log line, a twin's connection. */
  ready: (bridge: BridgeProcess) => Promise<void>;
  /** Closes the twins. */
  close: () => Promise<void>;
  /** Files the bridge reads at its start (hooks.json), written before it starts. */
  dataFiles?: Record<string, string>;
  /** A bridge that is not root: run as this user, which is given the world's folders. */
  runAs?: RunAs;
}

export async function startBridgeWorld(options: BridgeWorldOptions): Promise<BridgeWorld> {
  const cli = await fakeCliWorld();
  const data = await tempDir('bridge-data-');
  for (const [name, text] of Object.entries(options.dataFiles ?? {})) await writeFile(join(data.path, name), text, { mode: 0o600 });
  const work = await tempDir('bridge-work-');
  if (options.runAs) for (const dir of [cli.dir, data.path, work.path]) await chown(dir, options.runAs.uid, options.runAs.gid);
  // The machine's own chat apps are none of the world's: only the twins' settings reach the bridge.
  const inherited = Object.entries(cli.env as Record<string, string>).filter(([name]) => !/^(TELEGRAM|SLACK|DISCORD|MATTERMOST|TEAMS|MATRIX)_/.test(name));
  const env: Record<string, string> = {
    ...Object.fromEntries(inherited),
    BRIDGE_DATA_DIR: data.path,
    BRIDGE_WORKDIR: work.path,
    // A test's stop does not wait for its turns: the drain's own tests set one.
    BRIDGE_DRAIN_SECONDS: '0',
    ...options.env,
  };
  const running = async () => {
    const bridge = startBridgeProcess(env, [], undefined, options.runAs);
    await options.ready(bridge);
    return bridge;
  };
  const world: BridgeWorld = {
    cli,
    dataDir: data.path,
    workdir: work.path,
    env,
    bridge: await running(),
    async restart(signal = 'SIGTERM') {
      world.bridge.kill(signal);
      await world.bridge.exited;
      world.bridge = await running();
      return world.bridge;
    },
    async stop() {
      world.bridge.kill('SIGTERM');
      await world.bridge.exited;
      await options.close();
      await Promise.all([cli.cleanup(), data.remove(), work.remove()]);
    },
  };
  return world;
}
