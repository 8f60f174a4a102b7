import { relative, resolve, sep } from 'node:path';
import { readInPlace, writeInPlace } from '../files/agent-place.ts';
import type { Owner } from '../sandbox/helper-env.ts';
import { sessionsAt, type SavedSessionFormatName } from './saved-sessions.ts';

/** One file of a CLI's session, by its path under the folder the CLI keeps that directory's sessions in. */
export interface SessionFile {
  path: string;
  data: Buffer;
}

/** A session file is at most what a session's state may hold (its cap is checked after). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The files that hold a CLI's session, as its format says (saved-sessions.ts), relative to the
 * folder the CLI keeps `cwd`'s sessions in on this machine (its home as `env` says). Read as
 * files/agent-place.ts reads a place an agent writes: a link is never followed, and what
 * `owner` cannot read itself is left out.
 */
export async function readSessionFiles(
  format: SavedSessionFormatName,
  cwd: string,
  sessionId: string,
  env: Record<string, string | undefined>,
  owner?: Owner,
): Promise<SessionFile[]> {
  const at = sessionsAt(format, env, cwd, owner);
  if (!at || !/^[\w-]+$/.test(sessionId)) return [];
  // One byte past the limit: a file that large is left out, never cut short.
  const read = await readInPlace(at.place, await at.format.files(at.place, at.folder, sessionId), MAX_FILE_BYTES + 1);
  return read.filter((file) => file.data.length <= MAX_FILE_BYTES).map((file) => ({ path: relative(at.folder, file.path), data: file.data }));
}

/**
 * Puts a session's files where the CLI on this machine looks for `cwd`'s sessions, as `owner`
 * when given; a path that would leave that folder, or a folder on the way that is a link, is refused.
 */
export async function writeSessionFiles(
  format: SavedSessionFormatName,
  cwd: string,
  env: Record<string, string | undefined>,
  files: SessionFile[],
  owner?: Owner,
): Promise<void> {
  const at = sessionsAt(format, env, cwd, owner);
  if (!at) throw new Error('the CLI has no home here (HOME is not set)');
  for (const file of files) {
    const path = resolve(at.folder, file.path);
    if (!path.startsWith(at.folder + sep)) throw new Error(`a session file's path leaves the CLI's folder: ${file.path}`);
    await writeInPlace(at.place, path, file.data);
  }
}

/** The total size of `files`. */
export function sizeOf(files: SessionFile[]): number {
  return files.reduce((sum, file) => sum + file.data.length, 0);
}
