import { jsonOf } from '../protocols/decoder.ts';
import { textIfThere, writePrivateFile } from './private-files.ts';

/**
 * A small file a part keeps in the data directory (a chat app's threads, its conversations):
 * read back as whatever JSON it holds, and written one write at a time, since the writes share
 * a temporary file beside it.
 */
export class KeptJson {
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  /** What it holds; undefined when it is not there or not JSON (a file cut short is forgotten, not fatal). */
  async read(): Promise<unknown> {
    const text = await textIfThere(this.file);
    return text === undefined ? undefined : jsonOf(text);
  }

  /** Writes what `snapshot` gives once the writes before it are done: the state as it is then. */
  write(snapshot: () => unknown): Promise<void> {
    const written = this.writing.then(() => writePrivateFile(this.file, JSON.stringify(snapshot())));
    this.writing = written.catch(() => undefined);
    return written;
  }
}
