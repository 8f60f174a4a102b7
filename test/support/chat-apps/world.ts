import { startBridgeWorld, type BridgeWorld } from '../bridge-world.ts';
import type { ChatAppTwin } from './chat-app.ts';

/** The bridge as a process serving one chat app's twin, or several: the transport contract suite's world. */
export interface ChatAppWorld extends BridgeWorld {
  apps: ChatAppTwin[];
}

export async function startChatAppWorld(apps: ChatAppTwin[], extraEnv: Record<string, string> = {}, dataFiles?: Record<string, string>): Promise<ChatAppWorld> {
  const world = await startBridgeWorld({
    ...(dataFiles ? { dataFiles } : {}),
    env: { ...Object.assign({}, ...apps.map((app) => app.env)), BRIDGE_ALLOWED_USERS: apps.map((app) => app.owner).join(','), ...extraEnv },
    ready: async (bridge) => {
      await bridge.waitForLog(/serving /, 30_000);
      await Promise.all(apps.map((app) => app.connected?.() ?? Promise.resolve()));
    },
    close: async () => void (await Promise.all(apps.map((app) => app.stop()))),
  });
  return Object.assign(world, { apps });
}
