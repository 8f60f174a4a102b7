import { constants, type Dirent } from 'node:fs';
import { open, readdir } from 'node:fs/promises';

/** Agent files are hand-written prompts and a few fields; anything bigger is a mistake. */
export const MAX_FILE_BYTES = 256 * 1024;

export type ReadResult = { status: 'ok'; text: string } | { status: 'missing' } | { status: 'failed'; message: string };

/**
 * Reads a UTF-8 file without ever holding more than `limit` bytes. O_NONBLOCK keeps a FIFO
 * planted in the agents folder from hanging the open; fstat then rejects it.
 */
export async function readBounded(path: string, limit = MAX_FILE_BYTES): Promise<ReadResult> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return isMissing(error) ? { status: 'missing' } : { status: 'failed', message: `cannot read (${errorCode(error)})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { status: 'failed', message: 'not a regular file' };
    if (stats.size > limit) return { status: 'failed', message: `file is ${stats.size} bytes, over the ${limit / 1024} KiB limit; skipped` };
    // One byte more than it had shows whether the file grew since fstat.
    const buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length === buffer.length) return { status: 'failed', message: 'changed while being read' };
    return { status: 'ok', text: buffer.toString('utf8', 0, length).replace(/^\uFEFF/, '') };
  } catch (error) {
    return { status: 'failed', message: `cannot read (${errorCode(error)})` };
  } finally {
    await handle.close();
  }
}

/** A missing folder is an empty source, not a problem. */
export async function listDir(dir: string): Promise<{ status: 'ok'; entries: Dirent[] } | { status: 'failed'; message: string }> {
  try {
    return { status: 'ok', entries: await readdir(dir, { withFileTypes: true }) };
  } catch (error) {
    if (isMissing(error)) return { status: 'ok', entries: [] };
    return { status: 'failed', message: `cannot list folder (${errorCode(error)})` };
  }
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}
