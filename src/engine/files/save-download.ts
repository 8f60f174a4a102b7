import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A download's body written to `path`, whole or failing: at most `limit` bytes (past it, the
 * `tooBig` sentence), never through a link put in the file's place, and as long as the server
 * said it was. Every transport's downloads end here, whatever asked for the file.
 */
export async function saveDownload(
  response: Response,
  path: string,
  options: { limit: number; tooBig: string; signal?: AbortSignal | undefined },
): Promise<void> {
  const { limit, tooBig, signal } = options;
  if (!response.ok || !response.body) throw new Error(`the download failed (HTTP ${response.status})`);
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > limit ? new TooBig(tooBig) : null, chunk);
    },
  });
  const target = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  await pipeline(Readable.fromWeb(response.body), counted, target.createWriteStream(), signal ? { signal } : {}).catch((error: Error) => {
    if (signal?.aborted || error instanceof TooBig) throw error;
    throw new Error(`the download broke off (${error.message})`);
  });
  const expected = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(expected) && received !== expected) throw new Error(`the download broke off (${received} of ${expected} bytes)`);
}

class TooBig extends Error {}
