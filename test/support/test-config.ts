import { fileURLToPath } from 'node:url';
import { loadConfig, type BridgeConfig } from '../../src/app/config.ts';
import type { Settings } from '../../src/kernel/settings/bridge-manifest.ts';
import { FAKE_AGENT } from './fake-cli.ts';

const FIXTURE_ADAPTERS = fileURLToPath(new URL('../fixtures/adapters/', import.meta.url));

/** A real configuration (manifest.json and all) over the fake CLI adapter, for in-process tests. */
export async function testConfig(options: {
  dataDir: string;
  workdir: string;
  env: Record<string, string | undefined>;
  subagents?: Partial<Settings['subagents']>;
  settings?: Partial<Omit<Settings, 'subagents'>>;
}): Promise<BridgeConfig> {
  const config = await loadConfig({
    env: {
      BRIDGE_SANDBOX: 'off',
      ...options.env,
      BRIDGE_DATA_DIR: options.dataDir,
      BRIDGE_WORKDIR: options.workdir,
      BRIDGE_DEFAULT_CLI: 'fake',
      BRIDGE_FAKE_COMMAND: FAKE_AGENT,
    },
    adaptersDir: FIXTURE_ADAPTERS,
  });
  config.settings = { ...config.settings, stopGraceMs: 300, ...options.settings, subagents: { ...config.settings.subagents, ...options.subagents } };
  return config;
}
