import { readdir, realpath } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isInside } from '../projects/directories.ts';
import { specialKind } from './contained.ts';

/** What a directory holds, for an archive: never followed out of it, never opening anything. */
export interface DirectoryEntries {
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
export async function directoryEntries(root: string, { signal, leaveOut }: { signal?: AbortSignal; leaveOut?: string } = {}): Promise<DirectoryEntries> {
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
