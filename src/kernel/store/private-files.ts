import { chmod, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Only the bridge's own user reads what it keeps: session ids, CSRF tokens, chats, logs. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Writes `content` to `path` in one step, owner-only: into a fresh temporary file beside it
 * (made 0600, never a file or link already there), then renamed over it. A reader sees the
 * old file or the new one; the mode is the new file's, whatever the old one had.
 */
export async function writePrivateFile(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tmp`);
  await rm(temporary, { force: true });
  await writeFile(temporary, content, { mode: FILE_MODE, flag: 'wx' });
  await rename(temporary, path);
}

/** A file's text; undefined when it is not there (any other failure to read it throws). */
export async function textIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The data directory, made if missing, and everything in it owner-only: 0700 directories, 0600
 * files, including those an older version wrote 0644. Agents' checkouts (`worktrees`, any git
 * repository) keep their modes: their files are the project's, executables among them.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await tighten(dir);
}

async function tighten(dir: string): Promise<void> {
  await chmod(dir, DIR_MODE);
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.some((entry) => entry.name === '.git')) return;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Links are not followed: what they point at is not the bridge's to change.
    if (entry.isDirectory() && entry.name !== 'worktrees') await tighten(path);
    else if (entry.isFile() && ((await lstat(path)).mode & 0o077) !== 0) await chmod(path, (await lstat(path)).mode & FILE_MODE);
  }
}
