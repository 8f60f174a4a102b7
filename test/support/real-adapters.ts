import { fileURLToPath } from 'node:url';
import { loadAdapters, type Adapter } from '../../src/engine/adapters/load.ts';
import { CLI_BINARIES, type CliName } from './cli-env.ts';

const ADAPTERS_DIR = fileURLToPath(new URL('../../adapters/', import.meta.url));

/** The shipped adapter manifests, pointed at the binaries npm installed into node_modules. */
export async function realAdapters(): Promise<Map<string, Adapter>> {
  return loadAdapters(ADAPTERS_DIR, {
    BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
    BRIDGE_CODEX_COMMAND: CLI_BINARIES.codex,
    BRIDGE_DROID_COMMAND: CLI_BINARIES.droid,
  });
}

export async function realAdapter(cli: CliName): Promise<Adapter> {
  return (await realAdapters()).get(cli)!;
}
