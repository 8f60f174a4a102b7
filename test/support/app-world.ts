import { afterEach, beforeEach } from 'vitest';
import { createApp, type App } from '../../src/app/create-app.ts';
import type { Downloads, Outbound } from '../../src/kernel/ports/chat.ts';
import type { Settings } from '../../src/kernel/settings/bridge-manifest.ts';
import { ChatStore } from '../../src/kernel/store/chat-store.ts';
import type { Requester } from '../../src/work/subagents/record.ts';
import type { SpawnIntent } from '../../src/work/subagents/spawner.ts';
import { fakeCliWorld, type FakeCliWorld } from './fake-cli.ts';
import { RecordingOutbound } from './recording-outbound.ts';
import { testConfig } from './test-config.ts';
import { silentLog } from './silent-log.ts';
import type { Command } from '../../src/chat/dispatch/command.ts';
import { chat } from './chats.ts';

/** The whole bridge in this process, wired as `npm start` wires it, over the fake CLI and a test Outbound. */
export interface OpenAppOptions {
  subagents?: Partial<Settings['subagents']>;
  settings?: Partial<Omit<Settings, 'subagents'>>;
  /** Both default to the fake CLI world's folder. */
  dataDir?: string;
  workdir?: string;
  env?: Record<string, string | undefined>;
  start?: boolean;
  /** How files people send are fetched; none: as on the console. */
  downloads?: Downloads;
  /** The chat's commands, when a test adds its own. */
  commands?: readonly Command[];
}

export async function openApp(world: FakeCliWorld, out: Outbound, options: OpenAppOptions = {}): Promise<App> {
  const dataDir = options.dataDir ?? world.dir;
  const config = await testConfig({
    dataDir,
    workdir: options.workdir ?? world.dir,
    env: { ...world.env, ...options.env },
    ...(options.subagents ? { subagents: options.subagents } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const app = await createApp({
    config,
    store: await ChatStore.open(dataDir),
    out,
    log: silentLog(),
    // Files come on the transport the tests' chats are on.
    ...(options.downloads ? { downloads: new Map([['telegram', options.downloads]]) } : {}),
    ...(options.commands ? { commands: options.commands } : {}),
  });
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
  const { requester = { kind: 'user', userId: '1', name: 'Ada' }, cwd = world.dir, ...intent } = extra;
  return app.subagents.spawner.spawn({ task, ...intent }, { address: chat(chatId), requester, cwd, cli: 'fake', depth: 0 });
}

/**
 * A fresh app for each test of the file, over the fake CLI and a RecordingOutbound (or `out`'s),
 * shut down after it; `before` lays out state (a saved chat, say) before the app opens.
 */
export function appPerTest<O extends RecordingOutbound = RecordingOutbound>(
  options: OpenAppOptions & { before?: (world: FakeCliWorld) => Promise<void>; out?: () => O } = {},
): {
  world: FakeCliWorld;
  out: O;
  app: App;
} {
  const current = {} as { world: FakeCliWorld; out: O; app: App };
  beforeEach(async () => {
    current.world = await fakeCliWorld();
    current.out = options.out?.() ?? (new RecordingOutbound() as O);
    await options.before?.(current.world);
    current.app = await openApp(current.world, current.out, options);
  });
  afterEach(async () => {
    await current.app.shutdown();
    await current.world.cleanup();
  });
  return current;
}
