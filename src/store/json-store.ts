import { chmod, mkdir } from 'node:fs/promises';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { ConfigError } from '../errors/config-error.ts';

/**
 * A lowdb JSON file (atomic writes: temp file, then rename). A file that cannot be read is
 * a stop-the-start error naming the file: silently starting empty would lose every session.
 */
export async function openJsonStore<T extends object>(file: string, initial: T): Promise<Low<T>> {
  const db = new Low<T>(new JSONFile<T>(file), initial);
  try {
    await db.read();
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the bridge's state (${(error as Error).message}); fix or move the file away`);
  }
  db.data ??= initial;
  return db;
}

/** The data directory holds session ids and logs: owner-only. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}
