import { join } from 'node:path';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { isObject } from '../../kernel/protocols/decoder.ts';
import { KeptJson } from '../../kernel/store/kept-json.ts';

/** Channels remembered at most: the ones written in most recently are kept. */
const MAX_CHANNELS = 500;

/**
 * The newest message the bridge took in each Discord channel it answers in (DMs, channels
 * that mention it, threads), on disk. Discord's gateway gives nothing again after a restart:
 * what was written in those channels meanwhile is fetched from there on and handled (the
 * bridge takes each message once, by its id).
 */
export class ReadMarks {
  private constructor(
    private readonly kept: KeptJson,
    private readonly marks: Map<string, string>,
  ) {}

  /** A file that cannot be written stops the start: without it, a restart loses what came meanwhile. */
  static async open(dataDir: string): Promise<ReadMarks> {
    const kept = new KeptJson(join(dataDir, 'discord-read-marks.json'));
    const data = await kept.read();
    const marks = Object.entries(isObject(data) ? data : {}).filter(
      (entry): entry is [string, string] => /^\d+$/.test(entry[0]) && typeof entry[1] === 'string' && /^\d+$/.test(entry[1]),
    );
    const store = new ReadMarks(kept, new Map(marks));
    await store.flush().catch((error: Error) => {
      throw new ConfigError(`${kept.file} cannot be written (${error.message}): the bridge keeps there what it took from Discord`);
    });
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
    void this.flush().catch(() => {});
  }

  forget(channel: string): void {
    if (this.marks.delete(channel)) void this.flush().catch(() => {});
  }

  /** Writes the marks as they are: one write at a time, the latest state last. */
  flush(): Promise<void> {
    return this.kept.write(() => Object.fromEntries(this.marks));
  }
}
