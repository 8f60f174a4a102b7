import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { writePrivateFile } from '../../kernel/store/private-files.ts';

/** Channels remembered at most: the ones written in most recently are kept. */
const MAX_CHANNELS = 500;

/**
 * The newest message the bridge took in each Discord channel it answers in (DMs, channels
 * that mention it, threads), on disk. Discord's gateway gives nothing again after a restart:
 * what was written in those channels meanwhile is fetched from there on and handled (the
 * bridge takes each message once, by its id).
 */
export class ReadMarks {
  private writing: Promise<void> | undefined;
  private dirty = false;

  private constructor(
    private readonly path: string,
    private readonly marks: Map<string, string>,
  ) {}

  /** A file that cannot be written stops the start: without it, a restart loses what came meanwhile. */
  static async open(dataDir: string): Promise<ReadMarks> {
    const path = join(dataDir, 'discord-read-marks.json');
    let marks = new Map<string, string>();
    try {
      const data = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
      marks = new Map(Object.entries(data).filter(([channel, message]) => /^\d+$/.test(channel) && /^\d+$/.test(message)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    }
    const store = new ReadMarks(path, marks);
    try {
      await store.write();
    } catch (error) {
      throw new ConfigError(`${path} cannot be written (${(error as Error).message}): the bridge keeps there what it took from Discord`);
    }
    return store;
  }

  /** The channels and where to read on from, oldest mark first. */
  channels(): [channel: string, after: string][] {
    return [...this.marks.entries()];
  }

  /** `message` was taken in `channel`: written soon, never moving back. */
  mark(channel: string, message: string): void {
    const held = this.marks.get(channel);
    if (held !== undefined && BigInt(held) >= BigInt(message)) return;
    this.marks.delete(channel);
    this.marks.set(channel, message);
    while (this.marks.size > MAX_CHANNELS) this.marks.delete(this.marks.keys().next().value!);
    this.dirty = true;
    void this.flush().catch(() => {});
  }

  forget(channel: string): void {
    if (this.marks.delete(channel)) {
      this.dirty = true;
      void this.flush().catch(() => {});
    }
  }

  /** Writes what changed: one write at a time, the latest state last. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    this.writing = this.write().finally(() => (this.writing = undefined));
    await this.writing;
  }

  private write(): Promise<void> {
    return writePrivateFile(this.path, JSON.stringify(Object.fromEntries(this.marks)));
  }
}
