import { Low, type Adapter } from 'lowdb';
import { ConfigError } from '../errors/config-error.ts';
import { textIfThere, writePrivateFile } from './private-files.ts';

/**
 * A lowdb JSON file, written owner-only in one step (see writePrivateFile). A file that cannot
 * be read is a stop-the-start error naming the file: silently starting empty would lose every
 * session.
 */
export async function openJsonStore<T extends object>(file: string, initial: T): Promise<Low<T>> {
  const db = new Low<T>(new PrivateJsonFile<T>(file), initial);
  try {
    await db.read();
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the bridge's state (${(error as Error).message}); fix or move the file away`);
  }
  db.data ??= initial;
  return db;
}

/**
 * One write at a time; writes asked for while one is on its way share the next, which takes the
 * data as it is when it starts: every caller resolves after a write that holds its change.
 */
class PrivateJsonFile<T> implements Adapter<T> {
  private current: Promise<void> = Promise.resolve();
  private next: Promise<void> | undefined;
  private latest: T | undefined;

  constructor(private readonly file: string) {}

  async read(): Promise<T | null> {
    const text = await textIfThere(this.file);
    return text === undefined ? null : (JSON.parse(text) as T);
  }

  write(data: T): Promise<void> {
    this.latest = data;
    this.next ??= this.current
      .catch(() => {})
      .then(() => {
        this.next = undefined;
        return (this.current = writePrivateFile(this.file, JSON.stringify(this.latest, null, 2)));
      });
    return this.next;
  }
}
