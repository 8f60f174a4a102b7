import { createWriteStream } from 'node:fs';
import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { nanoid } from 'nanoid';
import { isInside } from '../projects/directories.ts';
import { megabytes } from './sizes.ts';

/** The Bot API takes uploads up to 50 MB, and shows images up to 10 MB as photos. */
export const UPLOAD_LIMIT = 50 * 1024 * 1024;
const PHOTO_LIMIT = 10 * 1024 * 1024;
const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);

export type Outgoing = { ok: true; path: string; bytes: number; as: 'photo' | 'document' } | { ok: false; error: string };
export type OutgoingTarget = { ok: true; path: string; directory: boolean } | { ok: false; error: string };

/**
 * What `wanted` names, as it really is: relative to `from`, symlinks and `..` resolved before
 * it is checked against `roots`, so neither leads out of them. Missing paths are a sentence.
 * Nothing inside `dataDir` (the bridge's own state: sessions, logs, secrets) is ever sent,
 * though the default one lies inside the default project root.
 */
export async function resolveTarget(from: string, wanted: string, roots: readonly string[], dataDir?: string): Promise<OutgoingTarget> {
  const path = resolve(from, wanted);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, error: `${wanted} does not exist.` };
  }
  if (!roots.some((root) => isInside(real, root))) return { ok: false, error: `${wanted} is outside ${roots.join(', ')}, where files may be sent from.` };
  if (dataDir && isInside(real, await realOrSame(dataDir)))
    return { ok: false, error: `${wanted} is in the bridge's data directory, which holds its secrets and is never sent.` };
  const info = await stat(real);
  if (!info.isFile() && !info.isDirectory()) return { ok: false, error: `${wanted} is not a regular file.` };
  return { ok: true, path: real, directory: info.isDirectory() };
}

/** A file that may be sent: inside the roots and not in `dataDir`, a file, within the upload limit; an image is sent as a photo. */
export async function outgoingFile(from: string, wanted: string, roots: readonly string[], dataDir?: string): Promise<Outgoing> {
  const target = await resolveTarget(from, wanted, roots, dataDir);
  if (!target.ok) return target;
  if (target.directory) return { ok: false, error: `${wanted} is a directory: send the files in it, or an archive of it.` };
  return sized(target.path, wanted);
}

async function sized(path: string, wanted: string): Promise<Outgoing> {
  const { size } = await stat(path);
  if (size === 0) return { ok: false, error: `${wanted} is empty.` };
  if (size > UPLOAD_LIMIT) return { ok: false, error: `${wanted} is ${megabytes(size)}: a bot can send at most ${megabytes(UPLOAD_LIMIT)}.` };
  const photo = PHOTO_EXTENSIONS.has(extname(path).toLowerCase()) && size <= PHOTO_LIMIT;
  return { ok: true, path, bytes: size, as: photo ? 'photo' : 'document' };
}

/**
 * A directory as a zip in `tempDir` (without `.git`, nor `dataDir` when it lies inside),
 * refused once it passes the upload limit. The caller removes it after sending.
 */
export async function zipDirectory(dir: string, tempDir: string, limit = UPLOAD_LIMIT, dataDir?: string): Promise<Outgoing> {
  await mkdir(tempDir, { recursive: true, mode: 0o700 });
  const path = join(tempDir, `${nanoid(8)}-${basename(dir) || 'root'}.zip`);
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const data = dataDir ? relative(dir, await realOrSame(dataDir)) : '';
  const skipData = data && !data.startsWith('..') ? [data, `${data}/**`] : [];
  archive.glob('**/*', { cwd: dir, dot: true, ignore: ['.git/**', '.git', ...skipData] });
  let written = 0;
  const tooBig = new Error(tooBigText(dir, limit));
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      done(written > limit ? tooBig : null, chunk);
    },
  });
  // The pipeline's end is the archive's: finalize() only says no more entries come.
  archive.finalize().catch(() => {});
  try {
    await pipeline(archive, counted, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await rm(path, { force: true });
    if (error === tooBig) return { ok: false, error: tooBig.message };
    throw error;
  }
  return sized(path, `${basename(dir)}.zip`);
}

/** The real path of `path`, or `path` itself when it does not exist (yet). */
async function realOrSame(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

const tooBigText = (dir: string, limit: number) => `${basename(dir)} zipped is over ${megabytes(limit)}, more than a bot can send: pick a smaller directory.`;
