import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { claudeProjectDir, codexSessionsDir, type SavedSessionFormat } from './saved-sessions.ts';

/**
 * Whose files these are when that is not this process's user (the agent user, a sandbox's
 * uid): read and written as them, never as the bridge, so a link planted in their home reads
 * or writes nothing they could not.
 */
export interface FileOwner {
  uid: number;
  gid: number;
}

/** One file of a CLI's session, by its path under the folder the CLI keeps that directory's sessions in. */
export interface SessionFile {
  path: string;
  data: Buffer;
}

/** The folder a CLI keeps `cwd`'s sessions in, on this machine (its home as `env` says). */
function sessionRoot(format: SavedSessionFormat, cwd: string, env: Record<string, string | undefined>): string | undefined {
  return format === 'claude-projects' ? claudeProjectDir(cwd, env) : codexSessionsDir(env);
}

/**
 * The files that hold a CLI's session: Claude Code's transcript `<id>.jsonl` and its folder
 * `<id>/` (subagents' transcripts, large tool results); codex's rollout `YYYY/MM/DD/rollout-…-<id>.jsonl`.
 */
export async function readSessionFiles(
  format: SavedSessionFormat,
  cwd: string,
  sessionId: string,
  env: Record<string, string | undefined>,
  owner?: FileOwner,
): Promise<SessionFile[]> {
  const root = sessionRoot(format, cwd, env);
  if (!root || !/^[\w-]+$/.test(sessionId)) return [];
  const paths =
    format === 'claude-projects'
      ? [join(root, `${sessionId}.jsonl`), ...(await walk(join(root, sessionId)))]
      : (await walk(root, 3)).filter((path) => path.endsWith(`-${sessionId}.jsonl`));
  const files: SessionFile[] = [];
  for (const path of paths) {
    const data = await (owner ? readAs(owner, path) : readFile(path)).catch(() => undefined);
    if (data) files.push({ path: relative(root, path), data });
  }
  return files;
}

/** Puts a session's files where the CLI on this machine looks for `cwd`'s sessions; a path that would leave that folder is refused. */
export async function writeSessionFiles(
  format: SavedSessionFormat,
  cwd: string,
  env: Record<string, string | undefined>,
  files: SessionFile[],
  owner?: FileOwner,
): Promise<void> {
  const root = sessionRoot(format, cwd, env);
  if (!root) throw new Error('the CLI has no home here (HOME is not set)');
  for (const file of files) {
    const path = resolve(root, file.path);
    if (!path.startsWith(root + sep)) throw new Error(`a session file's path leaves the CLI's folder: ${file.path}`);
    if (owner) {
      await writeAs(owner, path, file.data);
      continue;
    }
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, file.data, { mode: 0o600 });
  }
}

const run = promisify(execFile);

/** A session file is at most what a session's state may hold (its cap is checked after). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

async function readAs(owner: FileOwner, path: string): Promise<Buffer> {
  const { stdout } = await run('cat', ['--', path], { uid: owner.uid, gid: owner.gid, encoding: 'buffer', maxBuffer: MAX_FILE_BYTES });
  return stdout;
}

async function writeAs(owner: FileOwner, path: string, data: Buffer): Promise<void> {
  const script = 'umask 077 && mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';
  await new Promise<void>((done, fail) => {
    const child = execFile('sh', ['-c', script, 'sh', path], { uid: owner.uid, gid: owner.gid }, (error, _out, stderr) =>
      error ? fail(new Error(String(stderr).trim() || error.message, { cause: error })) : done(),
    );
    child.stdin?.end(data);
  });
}

/** Every file under `dir` (to `depth` folders down), none when it is missing. */
async function walk(dir: string, depth = 8): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile()) found.push(path);
    else if (entry.isDirectory() && depth > 0) found.push(...(await walk(path, depth - 1)));
  }
  return found;
}

/** The total size of `files`. */
export function sizeOf(files: SessionFile[]): number {
  return files.reduce((sum, file) => sum + file.data.length, 0);
}
