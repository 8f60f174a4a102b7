import { format } from 'prettier';
import { COMMANDS } from '../src/bridge/commands/index.ts';

/** What manifest.json says of each command: generated from its module. */
export function commandManifest(): { name: string; description: string; usage: string }[] {
  return COMMANDS.map(({ name, description, usage }) => ({ name, description, usage }));
}

/**
 * manifest.json as the code makes it: the parts generated from the modules replaced, and
 * everything else (the settings operators edit) kept as it is, in its place.
 */
export async function manifestFromCode(current: Record<string, unknown>): Promise<string> {
  const next = { ...current, commands: commandManifest() };
  return format(JSON.stringify(next), { parser: 'json', printWidth: 160 });
}
