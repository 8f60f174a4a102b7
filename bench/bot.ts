import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createApp } from '../src/app/create-app.ts';
import { loadConfig } from '../src/app/config.ts';
import { silentLog } from '../test/support/silent-log.ts';
import { ChatStore } from '../src/kernel/store/chat-store.ts';
import { ensurePrivateDir } from '../src/kernel/store/private-files.ts';
import { telegram as telegramTransport } from '../src/transports/telegram/transport.ts';
import { fakeCliWorld, type FakeCliWorld } from '../test/support/fake-cli.ts';
import { FakeTelegram } from '../test/support/fake-telegram/index.ts';
import { testConfig } from '../test/support/test-config.ts';

export interface BenchBot {
  telegram: FakeTelegram;
  cli: FakeCliWorld;
  app: Awaited<ReturnType<typeof createApp>>;
  stop(): Promise<void>;
}

/**
 * The whole bot in this process, as a benchmark drives it: grammY over real HTTP to the fake
 * Bot API, and the fake CLI as real processes under the test adapter, or under a real
 * adapter when `cli` names it and its command (the fake agent speaks claude's live protocol;
 * a real binary needs the mock model's environment in `env` and its `workdir`).
 */
export async function startBenchBot(
  dir: string,
  options: { env?: Record<string, string>; floodLimits?: boolean; cli?: { name: 'claude' | 'codex'; command: string }; workdir?: string } = {},
): Promise<BenchBot> {
  // As the bridge's start makes it: a real CLI's working directory is elsewhere.
  await ensurePrivateDir(dir);
  const telegram = await FakeTelegram.start(options.floodLimits ? { floodLimits: true } : {});
  const cli = await fakeCliWorld();
  const work = options.workdir ?? join(dir, 'work');
  await mkdir(work, { recursive: true });
  const env = { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot };
  const config = options.cli
    ? await loadConfig({
        env: {
          // The bridge's own costs, as the tests' config measures them: the walls' are the sandbox bench's.
          BRIDGE_SANDBOX: 'off',
          ...cli.env,
          ...env,
          ...options.env,
          BRIDGE_DATA_DIR: dir,
          BRIDGE_WORKDIR: work,
          BRIDGE_DEFAULT_CLI: options.cli.name,
          [`BRIDGE_${options.cli.name.toUpperCase()}_COMMAND`]: options.cli.command,
        },
      })
    : await testConfig({ dataDir: dir, workdir: work, env: { ...cli.env, ...env, ...options.env } });
  const transport = await telegramTransport.create({ env, dataDir: dir });
  await transport.connect(silentLog());
  const app = await createApp({ config, store: await ChatStore.open(dir), out: transport.out, log: silentLog() });
  const serving = transport.serve(app.host, silentLog());
  return {
    telegram,
    cli,
    app,
    async stop() {
      await transport.stop();
      await serving;
      await app.shutdown();
      await telegram.close();
      await cli.cleanup();
    },
  };
}

/** The p-th percentile of `values` (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((sorted.length * p) / 100) - 1))]!;
}
