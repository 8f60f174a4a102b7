import { readFile } from 'node:fs/promises';
import { ConfigError } from './config-error.ts';

/**
 * The text of a file the operator may put in the data directory (hooks.json, tool-policy.json,
 * prices.json): none when it is not there; one that cannot be read stops the start, naming it.
 */
export async function readOperatorFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${file}: cannot be read (${(error as Error).message})`);
  }
}
