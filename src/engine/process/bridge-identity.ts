import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'bridge-id';

/**
 * This bridge's (or worker's) own identity, made once and kept in its data directory: what
 * tells its sandboxes' homes from another's on the same host with the same agent user.
 */
export function bridgeIdentity(dataDir: string): string {
  const file = join(dataDir, FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    writeFileSync(file, `${randomUUID()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process of this data directory made it first: its identity is ours.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
