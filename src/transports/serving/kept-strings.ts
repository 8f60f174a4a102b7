import { isObject } from '../../kernel/protocols/decoder.ts';
import { KeptJson } from '../../kernel/store/kept-json.ts';

/**
 * What a chat app keeps in the data directory by key (a conversation's service URL, a channel's
 * read mark), as one JSON object of strings: its newest `max` entries (one set again is the
 * newest), read back at the start and written whole after each change.
 */
export class KeptStrings {
  private constructor(
    private readonly kept: KeptJson,
    private readonly max: number,
    private readonly values: Map<string, string>,
  ) {}

  /** `valid`: which entries read back are kept (an entry none of the bridge's could be is dropped). */
  static async open(file: string, max: number, valid: (key: string, value: string) => boolean = () => true): Promise<KeptStrings> {
    const kept = new KeptJson(file);
    const held = await kept.read();
    const entries = Object.entries(isObject(held) ? held : {}).filter((e): e is [string, string] => typeof e[1] === 'string' && valid(e[0], e[1]));
    return new KeptStrings(kept, max, new Map(entries));
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  /** Oldest first. */
  entries(): [string, string][] {
    return [...this.values];
  }

  set(key: string, value: string): Promise<void> {
    this.values.delete(key);
    this.values.set(key, value);
    while (this.values.size > this.max) this.values.delete(this.values.keys().next().value!);
    return this.write();
  }

  async delete(key: string): Promise<void> {
    if (this.values.delete(key)) await this.write();
  }

  /** Writes the entries as they are: one write at a time, the latest state last. */
  write(): Promise<void> {
    return this.kept.write(() => Object.fromEntries(this.values));
  }
}
