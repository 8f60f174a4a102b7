import type { Stats } from 'node:fs';
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isInside } from '../projects/directories.ts';

/** A path that leads out of the directory it must stay in (a symlink, usually): a sentence for the chat. */
export class OutsideError extends Error {
  override name = 'OutsideError';
}

/**
 * `below` (a relative path like `.bridge/inbox`) under `root`, as it really is, made where
 * missing (owner-only unless `mode` says otherwise). Each part is looked at without following it: a part that is a symlink
 * leading out of `root` (a repository can ship `.bridge/inbox -> ../../elsewhere`) or that is
 * not a directory is an OutsideError, and nothing is made beyond it.
 */
export async function containedDir(root: string, below: string, mode = 0o700): Promise<string> {
  const realRoot = await realpath(root);
  let dir = realRoot;
  for (const part of below.split(sep).filter(Boolean)) {
    const next = join(dir, part);
    const info = await lstat(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!info) {
      await mkdir(next, { mode }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    } else if (!info.isDirectory() && !info.isSymbolicLink()) throw new OutsideError(`${shown(realRoot, next)} is not a directory`);
    dir = await realInside(realRoot, next, below);
  }
  return dir;
}

/** `path` with its symlinks resolved, when that is still inside `realRoot`; an OutsideError otherwise. */
async function realInside(realRoot: string, path: string, below: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (!real) throw new OutsideError(`${shown(realRoot, path)} is a link to nowhere`);
  if (!isInside(real, realRoot))
    throw new OutsideError(`${below} leads outside ${realRoot} (to ${real}), and files are never put or taken through such a link`);
  if (!(await lstat(real)).isDirectory()) throw new OutsideError(`${shown(realRoot, path)} is not a directory`);
  return real;
}

const shown = (root: string, path: string) => relative(root, path) || '.';

/** What a path is, in words, when it is not a file or a directory: why it was left alone. */
export function specialKind(info: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>): string | undefined {
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSymbolicLink()) return 'a link';
  return undefined;
}
