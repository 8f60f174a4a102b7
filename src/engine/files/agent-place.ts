import { execFile } from 'node:child_process';
import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { agentUser } from '../process/agent-user.ts';
import { helperEnv, type Owner } from '../sandbox/helper-env.ts';

/*
 * A place an agent can write (a home, its own or a sandbox's; a working directory; an inbox; the
 * folder its CLI keeps sessions in) is read and written by the bridge here alone, and so:
 * - no link is followed below the place's root: each file is opened with O_NOFOLLOW and the
 *   opened file must be where it was asked for (Linux names it, /proc/self/fd), each folder is
 *   listed only when its real path is its own, and a link in a listing is left out;
 * - where the place is another uid's (the agent user's, a sandbox's), nothing is read for it
 *   that this uid cannot read itself: the same paths are opened as it, in a child process with
 *   its uid and gid, and a file is given only when that open reached the very file (device and
 *   inode) the bridge opened. Writes there are made by a child process as that uid.
 * Node has no openat, so a folder swapped for a link between the check and the use is caught
 * after the open (the descriptor's own path), and the owner's open proves what it may read.
 */

export interface AgentPlace {
  /** The place, as the bridge named it (a home it made or looked up, a directory a person chose): never a path an agent wrote. */
  root: string;
  /** Its uid, when not the bridge's own: what it cannot read is refused, and writes are made as it. */
  owner?: Owner | undefined;
}

/** A place of the agent user's when agents run as one (whose files are then read as it), else of the bridge's own user. */
export function agentPlace(root: string, owner: Owner | undefined = agentUser()): AgentPlace {
  return { root, owner: owner && { uid: owner.uid, gid: owner.gid } };
}

/** An opened regular file of a place; the caller closes `handle`. */
export interface InPlace {
  path: string;
  handle: FileHandle;
  info: Stats;
}

/**
 * Why a file of a place was not opened: `outside` (a link, or out of the place), `unreadable`
 * (by the place's owner), `denied` (to the bridge itself), `special` (a pipe, a device…), `missing`.
 */
export interface Refused {
  path: string;
  refused: 'outside' | 'unreadable' | 'denied' | 'special' | 'missing';
  /** In a sentence, for the chat or the agent. */
  why: string;
}

export const isOpened = (result: InPlace | Refused): result is InPlace => 'handle' in result;

/** Opens regular files of `place` for reading (each as `openerIn` says), all at once. */
export async function openInPlace(place: AgentPlace, paths: readonly string[]): Promise<(InPlace | Refused)[]> {
  const openOne = await openerIn(place, paths);
  return Promise.all(paths.map(openOne));
}

/**
 * A function opening, one at a time, any of `paths` (regular files of `place`): without
 * following a link, never blocking on a named pipe, where it was asked for, and, when the place
 * is another uid's, only a file that uid opened itself. The owner's opens are made once, here.
 */
export async function openerIn(place: AgentPlace, paths: readonly string[]): Promise<(path: string) => Promise<InPlace | Refused>> {
  const realRoot = await realpath(place.root);
  const owner = otherOwner(place.owner);
  const owners = owner ? await ownersFiles(owner, paths) : undefined;
  return async (path) => {
    const opened = await openOne(place.root, realRoot, path);
    if (!owners || !isOpened(opened) || owners.get(path) === fileId(opened.info)) return opened;
    await opened.handle.close();
    return { path, refused: 'unreadable', why: `${path} is not readable by the agent user` };
  };
}

/** Up to `maxBytes` of each of `paths` (from the start), as `openInPlace` opens them; those refused are left out. */
export async function readInPlace(place: AgentPlace, paths: readonly string[], maxBytes: number): Promise<{ path: string; data: Buffer; info: Stats }[]> {
  const opened = await openInPlace(place, paths);
  return Promise.all(
    opened.filter(isOpened).map(async ({ path, handle, info }) => {
      try {
        const buffer = Buffer.alloc(Math.min(maxBytes, Math.max(info.size, 0)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return { path, data: buffer.subarray(0, bytesRead), info };
      } finally {
        await handle.close();
      }
    }),
  );
}

/** A folder's entry: a regular file or a folder (links, pipes and devices are never listed). */
export interface PlaceEntry {
  name: string;
  path: string;
  directory: boolean;
  mtimeMs: number;
}

/** What `dir` (a folder of `place`) holds, none when it is missing, out of the place or reached through a link. */
export async function entriesInPlace(place: AgentPlace, dir: string): Promise<PlaceEntry[]> {
  const realRoot = await realpath(place.root).catch(() => undefined);
  const expected = realRoot && whereInside(place.root, realRoot, dir);
  if (!expected || (await realpath(dir).catch(() => undefined)) !== expected) return [];
  const dirents = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  const entries = await Promise.all(
    dirents
      .filter((dirent) => dirent.isFile() || dirent.isDirectory())
      .map(async (dirent) => {
        const path = join(dir, dirent.name);
        const info = await lstat(path).catch(() => undefined);
        return info && (info.isFile() || info.isDirectory()) ? { name: dirent.name, path, directory: info.isDirectory(), mtimeMs: info.mtimeMs } : undefined;
      }),
  );
  return entries.filter((entry) => entry !== undefined);
}

/** Every regular file under `dir` (to `depth` folders down), as `entriesInPlace` lists them. */
export async function filesInPlace(place: AgentPlace, dir: string, depth = 8): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await entriesInPlace(place, dir)) {
    if (!entry.directory) found.push(entry.path);
    else if (depth > 0) found.push(...(await filesInPlace(place, entry.path, depth - 1)));
  }
  return found;
}

/**
 * Writes `data` to `path` in `place`, as its owner when it has one: each folder on the way made
 * where missing and refused where it is a link, the file written beside its place and renamed
 * over it (so a link put there is replaced, never written through).
 */
export async function writeInPlace(place: AgentPlace, path: string, data: Buffer): Promise<void> {
  const rel = relative(place.root, path);
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`${path} is outside ${place.root}`);
  const owner = otherOwner(place.owner);
  await new Promise<void>((done, fail) => {
    const child = execFile(
      'sh',
      ['-c', WRITE, 'sh', place.root, rel],
      { ...(owner ?? {}), env: helperEnv(), timeout: CHILD_TIMEOUT_MS },
      (error, _out, stderr) => (error ? fail(new Error(String(stderr).trim() || error.message, { cause: error })) : done()),
    );
    child.stdin?.on('error', () => {}); // a refusal may come before the data is taken
    child.stdin?.end(data);
  });
}

/** A folder held open: a path under `path` is resolved in that very folder, wherever it is moved or whatever is put in its place. */
export interface HeldFolder {
  path: string;
  close(): Promise<void>;
}

/**
 * Holds `realDir` (a real path the caller checked) open, for writes the bridge itself makes
 * there (an inbox it owns, in a directory an agent writes): a folder on the way swapped for a
 * link after the check changes nothing, as with openat. Linux names the held folder
 * (/proc/self/fd/N); elsewhere it is `realDir`, checked again.
 */
export async function holdFolder(realDir: string): Promise<HeldFolder> {
  const handle = await open(realDir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  const proc = `/proc/self/fd/${handle.fd}`;
  const at = await readlink(proc).catch(() => undefined);
  const held = at === undefined ? ((await realpath(realDir)) === realDir ? realDir : undefined) : at === realDir ? proc : undefined;
  if (!held) {
    await handle.close();
    throw new Error(`${realDir} was moved or replaced while it was being opened`);
  }
  return { path: held, close: () => handle.close() };
}

/** Under load a child may be slow to start; one that hangs (a pipe put in a file's place) is stopped. */
const CHILD_TIMEOUT_MS = 60_000;

/** $1 the root (made if missing: the bridge names it), $2 the path under it: folders walked one by one (never a link), the file renamed into place. */
const WRITE = `set -e; umask 077
[ -d "$1" ] || mkdir -p -m 700 -- "$1"
dir=$(realpath -e -- "$1"); rest=$2
while case $rest in */*) true;; *) false;; esac; do
  part=\${rest%%/*}; rest=\${rest#*/}; dir=$dir/$part
  if [ -L "$dir" ]; then echo "$dir is a link, and nothing is written through one" >&2; exit 3; fi
  [ -d "$dir" ] || mkdir -m 700 -- "$dir"
done
[ "$(realpath -e -- "$dir")" = "$dir" ] || { echo "$dir leads elsewhere" >&2; exit 3; }
tmp=$(mktemp -- "$dir/.bridge-XXXXXXXX")
cat > "$tmp" || { rm -f -- "$tmp"; exit 1; }
mv -f -T -- "$tmp" "$dir/$rest"`;

/** The owner when it is another uid than the bridge's (the bridge reads as itself otherwise). */
function otherOwner(owner: Owner | undefined): Owner | undefined {
  return owner && owner.uid !== process.getuid?.() ? owner : undefined;
}

/** Where `path` must really be for it to lie in the place with no link followed: under the real root; undefined when it is outside. */
function whereInside(root: string, realRoot: string, path: string): string | undefined {
  for (const [base, real] of [
    [realRoot, realRoot],
    [root, realRoot],
  ] as const) {
    const rel = relative(base, path);
    if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return join(real, rel);
  }
  return undefined;
}

async function openOne(root: string, realRoot: string, path: string): Promise<InPlace | Refused> {
  const expected = whereInside(root, realRoot, path);
  if (!expected) return { path, refused: 'outside', why: `${path} is outside ${root}` };
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException): Refused => {
    if (error.code === 'ELOOP') return { path, refused: 'outside', why: `${path} is a link` };
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { path, refused: 'missing', why: `${path} is gone` };
    if (error.code === 'EACCES') return { path, refused: 'denied', why: `${path} is not readable` };
    throw error;
  });
  if ('refused' in handle) return handle;
  const info = await handle.stat();
  const at = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path).catch(() => undefined));
  if (info.isFile() && at === expected) return { path, handle, info };
  await handle.close();
  if (at !== expected) return { path, refused: 'outside', why: `${path} leads elsewhere (to ${at ?? 'nowhere'})` };
  return { path, refused: 'special', why: `${path} is not a regular file` };
}

const fileId = (info: Pick<Stats, 'dev' | 'ino'>) => `${info.dev}:${info.ino}`;

/** Each path `owner` opens for reading itself, to the file it reached (device:inode); those it cannot open are left out. */
async function ownersFiles(owner: Owner, paths: readonly string[]): Promise<Map<string, string>> {
  if (!paths.length) return new Map();
  // Paths on stdin, NUL-separated (any number of them); one answer line each, in order.
  const script = 'for f do { stat -L -c "%d:%i" /dev/stdin 2>/dev/null || echo -; } < "$f" 2>/dev/null || echo -; done';
  const stdout = await new Promise<string>((done) => {
    const child = execFile(
      'xargs',
      ['-0', 'sh', '-c', script, 'sh'],
      { uid: owner.uid, gid: owner.gid, env: helperEnv(), timeout: CHILD_TIMEOUT_MS, maxBuffer: 64 * paths.length + 1024 },
      (_error, out) => done(String(out)),
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(paths.map((path) => `${path}\0`).join(''));
  });
  const ids = stdout.split('\n');
  return new Map(paths.flatMap((path, i) => (ids[i] && ids[i] !== '-' ? [[path, ids[i]]] : [])));
}
