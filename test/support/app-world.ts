import { createApp, type App } from '../../src/app.ts';
import type { Outbound } from '../../src/ports/transport.ts';
import type { Settings } from '../../src/config/bridge-manifest.ts';
import { ChatStore } from '../../src/store/chat-store.ts';
import type { Requester } from '../../src/subagents/record.ts';
import type { SpawnIntent } from '../../src/subagents/spawner.ts';
import type { FakeCliWorld } from './fake-cli.ts';
import { testConfig } from './test-config.ts';

/** The whole bridge in this process, wired as `npm start` wires it, over the fake CLI and a test Outbound. */
export async function openApp(
  world: FakeCliWorld,
  out: Outbound,
  options: {
    subagents?: Partial<Settings['subagents']>;
    settings?: Partial<Omit<Settings, 'subagents'>>;
    /** Both default to the fake CLI world's folder. */
    dataDir?: string;
    workdir?: string;
    env?: Record<string, string | undefined>;
    start?: boolean;
  } = {},
): Promise<App> {
  const dataDir = options.dataDir ?? world.dir;
  const config = await testConfig({
    dataDir,
    workdir: options.workdir ?? world.dir,
    env: { ...world.env, ...options.env },
    ...(options.subagents ? { subagents: options.subagents } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const app = await createApp({ config, store: await ChatStore.open(dataDir), out, log: () => {} });
  if (options.start !== false) await app.start();
  return app;
}

/** A spawn from a person in a chat (or, with `requester`, from its main agent), through the one spawn path. */
export function spawnFrom(
  app: App,
  world: FakeCliWorld,
  task: string,
  chatId = -1,
  extra: Partial<SpawnIntent> & { requester?: Requester; cwd?: string } = {},
) {
  const { requester = { kind: 'user', userId: 1, name: 'Ada' }, cwd = world.dir, ...intent } = extra;
  return app.subagents.spawner.spawn({ task, ...intent }, { address: { chatId }, requester, cwd, cli: 'fake', depth: 0 });
}
