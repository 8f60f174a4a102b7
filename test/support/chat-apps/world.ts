import { startBridgeProcess, tempDir, type BridgeProcess } from '../bridge-process.ts';
import { fakeCliWorld, type FakeCliWorld } from '../fake-cli.ts';
import type { ChatAppTwin } from './chat-app.ts';

/**
 * The bridge as a process serving one chat app's twin (or several), the fake CLI behind it:
 * the transport contract suite's world. `restart` starts a new bridge on the same data.
 */
export interface ChatAppWorld {
  apps: ChatAppTwin[];
  cli: FakeCliWorld;
  workdir: string;
  bridge: BridgeProcess;
  restart(signal?: NodeJS.Signals): Promise<BridgeProcess>;
  stop(): Promise<void>;
}

export async function startChatAppWorld(apps: ChatAppTwin[], extraEnv: Record<string, string> = {}): Promise<ChatAppWorld> {
  const cli = await fakeCliWorld();
  const data = await tempDir('bridge-data-');
  const work = await tempDir('bridge-work-');
  const env: Record<string, string> = {
    ...(cli.env as Record<string, string>),
    ...Object.assign({}, ...apps.map((app) => app.env)),
    BRIDGE_ALLOWED_USERS: apps.map((app) => app.owner).join(','),
    BRIDGE_DATA_DIR: data.path,
    BRIDGE_WORKDIR: work.path,
    BRIDGE_DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  const running = async () => {
    const bridge = startBridgeProcess(env);
    await bridge.waitForLog(/serving /, 30_000);
    await Promise.all(apps.map((app) => app.connected?.() ?? Promise.resolve()));
    return bridge;
  };
  const world: ChatAppWorld = {
    apps,
    cli,
    workdir: work.path,
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
      await Promise.all(apps.map((app) => app.stop()));
      await Promise.all([cli.cleanup(), data.remove(), work.remove()]);
    },
  };
  return world;
}
