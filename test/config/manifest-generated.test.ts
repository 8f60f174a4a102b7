import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { commandManifest, manifestFromCode, toolManifest } from '../../scripts/manifest-from-code.ts';
import { TOOLS } from '../../src/work/tools/index.ts';
import { COMMANDS } from '../../src/chat/commands/index.ts';
import { bridgeManifestSchema } from '../../src/kernel/settings/bridge-manifest.ts';

const path = new URL('../../manifest.json', import.meta.url);

describe('manifest.json', () => {
  it('says of the commands and tools exactly what their modules say: `npm run manifest` rewrites it', async () => {
    const file = await readFile(path, 'utf8');
    const fresh = await manifestFromCode(JSON.parse(file) as Record<string, unknown>);
    expect(file, 'manifest.json is stale: run `npm run manifest`').toBe(fresh);
  });

  it('stays valid for the bridge that reads it, with every command a transport can offer in its menu', async () => {
    const manifest = bridgeManifestSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    expect(manifest.commands.map((c) => c.name)).toEqual(COMMANDS.map((c) => c.name));
    expect(new Set(commandManifest().map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const command of COMMANDS) expect(command.usage.startsWith(`/${command.name}`), command.name).toBe(true);
    expect(manifest.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect(new Set(toolManifest().map((t) => t.name)).size).toBe(TOOLS.length);
  });
});
