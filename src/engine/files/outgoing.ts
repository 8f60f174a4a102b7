import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, readdir, realpath, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ZipArchive } from 'archiver';
import { nanoid } from 'nanoid';
import { isInside } from '../projects/directories.ts';
import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { megabytes } from './sizes.ts';
import { specialKind } from './contained.ts';
import { agentPlace, isOpened, openerIn, type AgentPlace, type Refused } from './agent-place.ts';

/** How large a file the chat's app takes, and shows inline as a picture: its transport's capabilities. */
export type SendLimits = Pick<ChatCapabilities, 'uploadBytes' | 'photoBytes'>;

const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);

/** A file ready to send: opened and checked, its bytes read from the descriptor (`content`). The caller closes it (`close`). */
export interface Sendable {
  ok: true;
  path: string;
  bytes: number;
  as: 'photo' | 'document';
  /** What a zip left out, and why, a line each. */
  skipped?: string[];
  content: () => AsyncIterable<Uint8Array>;
  close: () => Promise<void>;
}
export type Outgoing = Sendable | { ok: false; error: string };
export type OutgoingTarget = { ok: true; path: string; directory: boolean } | { ok: false; error: string };

/**
 * What `wanted` names, as it really is: relative to `from`, symlinks and `..` resolved before
 * it is checked against `roots`, so neither leads out of them. Missing paths are a sentence.
 * Nothing inside `dataDir` (the bridge's own state: sessions, logs, secrets) is ever sent,
 * though the default one lies inside the default project root.
 */
export async function resolveTarget(from: string, wanted: string, roots: readonly string[], dataDir?: string): Promise<OutgoingTarget> {
  const path = resolve(from, wanted);
  const real = await realpath(path).catch(() => undefined);
  if (!real) return { ok: false, error: `${wanted} does not exist.` };
  if (!roots.some((root) => isInside(real, root))) return { ok: false, error: `${wanted} is outside ${roots.join(', ')}, where files may be sent from.` };
  if (dataDir && isInside(real, await realOrSame(dataDir)))
    return { ok: false, error: `${wanted} is in the bridge's data directory, which holds its secrets and is never sent.` };
  // stat never opens: a named pipe is named here, not read (opening one blocks until a writer comes).
  const info = await stat(real);
  if (!info.isFile() && !info.isDirectory())
    return { ok: false, error: `${wanted} is ${specialKind(info) ?? 'not a regular file'}: only files and directories are sent.` };
  return { ok: true, path: real, directory: info.isDirectory() };
}

/** A file that may be sent: inside the roots and not in `dataDir`, a file, within the upload limit; an image is sent as a photo. */
export async function outgoingFile(from: string, wanted: string, roots: readonly string[], limits: SendLimits, dataDir?: string): Promise<Outgoing> {
  const target = await resolveTarget(from, wanted, roots, dataDir);
  if (!target.ok) return target;
  if (target.directory) return { ok: false, error: `${wanted} is a directory: send the files in it, or an archive of it.` };
  return sized(target.path, wanted, agentPlace(await rootOf(target.path, roots)), limits);
}

/**
 * Opened and checked on the descriptor itself (no link followed, a pipe never waited on), and
 * sent from that descriptor: the path swapped for a link or a pipe after the check changes nothing.
 * The roots are places an agent writes: when agents run as their own user, a file it cannot read
 * is not sent (files/agent-place.ts).
 */
async function sized(path: string, wanted: string, place: AgentPlace, limits: SendLimits): Promise<Outgoing> {
  const opened = await (await openerIn(place, [path]))(path);
  if (!isOpened(opened)) return { ok: false, error: refusal(wanted, opened) };
  const { handle, info } = opened;
  const { size } = info;
  const refuse = async (error: string): Promise<Outgoing> => {
    await handle.close();
    return { ok: false, error };
  };
  if (size === 0) return refuse(`${wanted} is empty.`);
  if (size > limits.uploadBytes) return refuse(`${wanted} is ${megabytes(size)}: this chat takes files of at most ${megabytes(limits.uploadBytes)}.`);
  const photo = PHOTO_EXTENSIONS.has(extname(path).toLowerCase()) && size <= limits.photoBytes;
  return {
    ok: true,
    path,
    bytes: size,
    as: photo ? 'photo' : 'document',
    // From the start each time (a retried upload reads it again); the descriptor stays open until closed.
    content: () => handle.createReadStream({ start: 0, end: Math.max(0, size - 1), autoClose: false }),
    close: () => handle.close().catch(() => {}),
  };
}

/**
 * A directory as a zip in `tempDir` (without `.git`), refused once it passes the upload limit.
 * Only files, directories and links inside it go in: named pipes, sockets and devices are never
 * opened, links leading out of it are not followed, and each is listed in `skipped`. Each file
 * is read from a descriptor opened without following a link and checked to be a regular file.
 * `dataDir`, when it lies inside, is left out. `signal` stops it (the partial zip is removed).
 * The caller removes the zip after sending.
 */
export async function zipDirectory(dir: string, tempDir: string, options: { limit: number; signal?: AbortSignal; dataDir?: string }): Promise<Outgoing> {
  const { limit, signal } = options;
  const entries = await directoryEntries(dir, { signal, ...(options.dataDir ? { leaveOut: await realOrSame(options.dataDir) } : {}) });
  await mkdir(tempDir, { recursive: true, mode: 0o700 });
  const path = join(tempDir, `${nanoid(8)}-${basename(dir) || 'root'}.zip`);
  // Loaded when a folder is first zipped: the start of a bridge that never does need not pay for it.
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  let written = 0;
  const tooBig = new Error(tooBigText(dir, limit));
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      done(written > limit ? tooBig : null, chunk);
    },
  });
  const skipped = [...entries.skipped];
  const output = createWriteStream(path, { mode: 0o600, flags: 'wx' });
  const zipped = pipeline(archive, counted, output, ...(signal ? [{ signal }] : []));
  const processed = entryCounter(archive, zipped);
  let reading: FileHandle | undefined; // the file being zipped: its stream closes it, unless the zip stops first
  const openFile = await openerIn(
    agentPlace(dir),
    entries.files.map((file) => file.path),
  );
  try {
    for (const name of entries.directories) processed.added(archive.append(Buffer.alloc(0), { name: `${name}/`, type: 'directory' }));
    for (const link of entries.links) processed.added(archive.symlink(link.name, link.target));
    // One file open at a time: the next is opened once the archive has taken the last.
    for (const file of entries.files) {
      signal?.throwIfAborted();
      const opened = await openFile(file.path);
      if (!isOpened(opened)) {
        skipped.push(
          `${file.name} (${opened.refused === 'missing' ? 'gone' : opened.refused === 'unreadable' ? 'not readable by the agent user' : 'changed into something else while zipping'})`,
        );
        continue;
      }
      reading = opened.handle;
      processed.added(archive.append(opened.handle.createReadStream(), { name: file.name, date: opened.info.mtime, mode: opened.info.mode & 0o777 }));
      await processed.all();
    }
    // The pipeline's end is the archive's: finalize() only says no more entries come.
    archive.finalize().catch(() => {});
    await zipped;
  } catch (error) {
    archive.abort();
    await zipped.catch(() => {});
    // Stopped before its file was even open, the stream still opens (creates) it, then closes it: removed after that.
    if (!output.closed) await once(output, 'close').catch(() => {});
    await reading?.close().catch(() => {});
    await rm(path, { force: true });
    if (error === tooBig) return { ok: false, error: tooBig.message };
    throw error;
  }
  // The zip is the bridge's own, in its temp folder: read as the bridge.
  const sent = await sized(path, `${basename(dir)}.zip`, { root: tempDir }, { uploadBytes: limit, photoBytes: 0 });
  return sent.ok && skipped.length ? { ...sent, skipped } : sent;
}

/** What a directory holds, for an archive: never followed out of it, never opening anything. */
interface DirectoryEntries {
  /** Paths inside the archive use `/`. */
  files: { name: string; path: string }[];
  directories: string[];
  /** Links leading to something inside the directory, kept as links (relative). */
  links: { name: string; target: string }[];
  /** What was left out, and why: `name (a named pipe)`. */
  skipped: string[];
}

/**
 * Walks `root` (already real: no link in it) by the kinds readdir reports, which are the
 * entries' own (a link is a link, not its target): files and directories are taken, a link
 * is kept as a link when it leads somewhere inside `root` and left out otherwise, and named
 * pipes, sockets and devices are left out, unopened. `.git` at the top is left out, and so is
 * `leaveOut` (the bridge's data directory, when a chat works above it).
 */
async function directoryEntries(root: string, { signal, leaveOut }: { signal?: AbortSignal; leaveOut?: string } = {}): Promise<DirectoryEntries> {
  const entries: DirectoryEntries = { files: [], directories: [], links: [], skipped: [] };
  const pending = [''];
  while (pending.length) {
    signal?.throwIfAborted();
    const folder = pending.pop()!;
    // A folder swapped for a link since it was listed is not followed.
    if (folder && (await realpath(join(root, folder)).catch(() => undefined)) !== join(root, folder)) {
      entries.skipped.push(`${folder} (changed into a link while zipping)`);
      continue;
    }
    const dirents = await readdir(join(root, folder), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      entries.skipped.push(`${folder || '.'} (${error.code === 'EACCES' ? 'not readable' : 'gone'})`);
      return [];
    });
    for (const dirent of dirents.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!folder && dirent.name === '.git') continue;
      const name = folder ? `${folder}/${dirent.name}` : dirent.name;
      if (leaveOut && join(root, name) === leaveOut) {
        entries.skipped.push(`${name} (the bridge's data directory)`);
        continue;
      }
      const path = join(root, folder, dirent.name);
      if (dirent.isDirectory()) {
        entries.directories.push(name);
        pending.push(name);
      } else if (dirent.isFile()) entries.files.push({ name, path });
      else if (dirent.isSymbolicLink()) {
        const real = await realpath(path).catch(() => undefined);
        if (!real) entries.skipped.push(`${name} (a link to nowhere)`);
        else if (!isInside(real, root)) entries.skipped.push(`${name} (a link leading outside)`);
        else entries.links.push({ name, target: relative(dirname(path), real) });
      } else entries.skipped.push(`${name} (${specialKind(dirent) ?? 'not a file'})`);
    }
  }
  return entries;
}

/** Waits until the archive has taken every entry appended so far, or the zip failed. */
function entryCounter(archive: ZipArchive, zipped: Promise<void>) {
  let appended = 0;
  let taken = 0;
  let wake: (() => void) | undefined;
  archive.on('entry', () => {
    taken++;
    wake?.();
  });
  // A zip that fails (too big, stopped) rejects here; one that ends has taken everything.
  const failed = zipped.then(() => new Promise<never>(() => {}));
  failed.catch(() => {}); // the zip's own failure is the caller's to handle; this only wakes the wait
  return {
    added: (_: ZipArchive) => void appended++,
    async all(): Promise<void> {
      while (taken < appended) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), failed]);
    },
  };
}

/** Why a file was not sent, for the chat or the agent. */
function refusal(wanted: string, refused: Refused): string {
  if (refused.refused === 'unreadable') return `refused: ${wanted} is not readable by the agent user, and nothing it could not read itself is sent.`;
  if (refused.refused === 'denied') return `${wanted} is not readable.`;
  return `${wanted} changed while it was being sent: ${refused.why}.`;
}

/** The root `real` (a real path) lies in. */
async function rootOf(real: string, roots: readonly string[]): Promise<string> {
  for (const root of roots) if (isInside(real, await realOrSame(root))) return realOrSame(root);
  return real;
}

/** The real path of `path`, or `path` itself when it does not exist (yet). */
async function realOrSame(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

const tooBigText = (dir: string, limit: number) => `${basename(dir)} zipped is over ${megabytes(limit)}, more than a bot can send: pick a smaller directory.`;
