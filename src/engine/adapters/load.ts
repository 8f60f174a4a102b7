import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ConfigError, describeIssues } from '../../kernel/errors/config-error.ts';
import { adapterManifestSchema, type AdapterManifest } from './manifest.ts';

export interface Adapter extends AdapterManifest {
  /** The command actually run, after `BRIDGE_<NAME>_COMMAND`. */
  resolvedCommand: string;
  file: string;
}

/**
 * Reads every `*.json` in the adapters folder. Any malformed manifest stops the start: a
 * bridge that silently lost a CLI would fail later, in a chat, far from the cause.
 */
export async function loadAdapters(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<Map<string, Adapter>> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  const adapters = new Map<string, Adapter>();
  for (const file of files) {
    const path = join(dir, file);
    const manifest = parseAdapterManifest(await readFile(path, 'utf8'), path);
    if (manifest.name !== basename(file, '.json')) {
      throw new ConfigError(`${path}: field "name": expected "${basename(file, '.json')}" (the file's name), got "${manifest.name}"`);
    }
    adapters.set(manifest.name, { ...manifest, resolvedCommand: commandOverride(manifest.name, env) ?? manifest.command, file: path });
  }
  if (adapters.size === 0) throw new ConfigError(`${dir}: no adapter manifests (*.json) found`);
  return adapters;
}

/** The JSON `text` of the operator's file at `path`; a ConfigError naming it when it is not JSON. */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON: ${(error as Error).message}`);
  }
}

/** `BRIDGE_<NAME>_COMMAND`: the executable an operator or a test runs for the CLI `name`. */
export function commandOverride(name: string, env: NodeJS.ProcessEnv): string | undefined {
  return env[`BRIDGE_${name.toUpperCase().replaceAll('-', '_')}_COMMAND`] || undefined;
}

export function parseAdapterManifest(text: string, path: string): AdapterManifest {
  const parsed = adapterManifestSchema.safeParse(parseJson(text, path));
  if (!parsed.success) throw new ConfigError(`${path}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}
