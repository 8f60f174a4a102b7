import { join } from 'node:path';
import { KeptJson } from '../../kernel/store/kept-json.ts';

/** Threads remembered at most: the oldest are forgotten first. */
const MAX_THREADS = 5000;

/**
 * The channel threads the bot is in: a mention started or joined each, and later replies there
 * reach the bot without one. Kept in the data directory, so a restart does not make the bot
 * deaf to its threads.
 */
export class KnownThreads {
  private constructor(
    private readonly kept: KeptJson,
    private readonly keys: Set<string>,
  ) {}

  static async open(dataDir: string): Promise<KnownThreads> {
    const kept = new KeptJson(join(dataDir, 'slack-threads.json'));
    const keys = await kept.read();
    return new KnownThreads(kept, new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []));
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
    await this.kept.write(() => [...this.keys]);
  }
}
