import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '../../kernel/store/private-files.ts';

/** Threads remembered at most: the oldest are forgotten first. */
const MAX_THREADS = 5000;

/**
 * The channel threads the bot is in: a mention started or joined each, and later replies there
 * reach the bot without one. Kept in the data directory, so a restart does not make the bot
 * deaf to its threads.
 */
export class KnownThreads {
  private constructor(
    private readonly file: string,
    private readonly keys: Set<string>,
  ) {}

  static async open(dataDir: string): Promise<KnownThreads> {
    const file = join(dataDir, 'slack-threads.json');
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '[]';
      throw error;
    });
    let keys: unknown;
    try {
      keys = JSON.parse(text);
    } catch {
      keys = [];
    }
    return new KnownThreads(file, new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []));
  }

  has(channel: string, threadTs: string): boolean {
    return this.keys.has(`${channel}:${threadTs}`);
  }

  async add(channel: string, threadTs: string): Promise<void> {
    const key = `${channel}:${threadTs}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    for (const old of this.keys) {
      if (this.keys.size <= MAX_THREADS) break;
      this.keys.delete(old);
    }
    // One write at a time (they share a temporary file), each of the set as it is then.
    const written = this.writing.then(() => writePrivateFile(this.file, JSON.stringify([...this.keys])));
    this.writing = written.catch(() => undefined);
    await written;
  }

  private writing: Promise<void> = Promise.resolve();
}
