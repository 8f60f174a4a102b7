import { basename, join } from 'node:path';
import { jsonOf } from '../../kernel/protocols/decoder.ts';
import { entriesInPlace, filesInPlace, readInPlace, type AgentPlace } from '../files/agent-place.ts';
import type { Owner } from '../sandbox/helper-env.ts';

/** A session a CLI saved on disk (a conversation started in a terminal, say), as /resume lists it. */
export interface SavedSession {
  id: string;
  firstPrompt: string;
  startedAt: number;
  lastAt: number;
  turns: number;
  /** Where it is kept. */
  file: string;
}

type Env = Record<string, string | undefined>;

/** How a CLI keeps its sessions on disk, for /resume, for moving a session to another machine, and for the doctor. */
export interface SavedSessionFormat {
  /** The variable naming the CLI's folder (`CLAUDE_CONFIG_DIR`), else its folder in the home. */
  home: { variable: string; folder: string };
  /** The folder of its sessions in its own. */
  sessions: string;
  /** The folder in there that holds `cwd`'s sessions; none: every directory's are together. */
  folderOf?: (cwd: string) => string;
  /** The newest sessions of `cwd` in `folder` (its sessions folder), at most LISTED. */
  list(place: AgentPlace, folder: string, cwd: string): Promise<SavedSession[]>;
  /** The files that hold one session, in `folder`. */
  files(place: AgentPlace, folder: string, id: string): Promise<string[]>;
}

/** Session files are read this far at most: the first prompt and the turn count are near the start. */
const READ_BYTES = 512 * 1024;
const LISTED = 20;

/** How each CLI keeps its sessions, by the name adapters use in `savedSessions`. */
const FORMATS = {
  /** Claude Code: `$CLAUDE_CONFIG_DIR` (or `~/.claude`) `/projects/<cwd with every other character a dash>/<id>.jsonl`, and its folder `<id>/` (subagents' transcripts, large tool results). */
  'claude-projects': {
    home: { variable: 'CLAUDE_CONFIG_DIR', folder: '.claude' },
    sessions: 'projects',
    folderOf: (cwd) => cwd.replace(/[^A-Za-z0-9]/g, '-'),
    list: claudeSessions,
    files: async (place, folder, id) => [join(folder, `${id}.jsonl`), ...(await filesInPlace(place, join(folder, id)))],
  },
  /** Codex: `$CODEX_HOME` (or `~/.codex`) `/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, whose first line says the session's id and directory. */
  'codex-rollouts': {
    home: { variable: 'CODEX_HOME', folder: '.codex' },
    sessions: 'sessions',
    list: codexSessions,
    files: async (place, folder, id) => (await filesInPlace(place, folder, 3)).filter((path) => path.endsWith(`-${id}.jsonl`)),
  },
} satisfies Record<string, SavedSessionFormat>;

export type SavedSessionFormatName = keyof typeof FORMATS;
export const SAVED_SESSION_FORMATS = Object.keys(FORMATS) as [SavedSessionFormatName, ...SavedSessionFormatName[]];

/**
 * The newest sessions the CLI saved for `cwd`, newest first; none when it saved none there.
 * Its home is a place its agent writes: read there without following a link, and, when it is
 * `owner`'s (the agent user's, a sandbox's), only what that uid reads itself (files/agent-place.ts).
 */
export async function readSavedSessions(format: SavedSessionFormatName, cwd: string, env: Env, owner?: Owner): Promise<SavedSession[]> {
  const at = sessionsAt(format, env, cwd, owner);
  return at ? at.format.list(at.place, at.folder, cwd) : [];
}

/**
 * Where a CLI keeps `cwd`'s sessions (without `cwd`: all of them), as `env` says, undefined
 * without a home: in `place`, the folder the operator named (`CLAUDE_CONFIG_DIR`,
 * `CODEX_HOME`) or else the home, through which no link is followed, read as `owner`.
 */
export function sessionsAt(name: SavedSessionFormatName, env: Env, cwd?: string, owner?: Owner) {
  const format: SavedSessionFormat = FORMATS[name];
  const named = env[format.home.variable];
  const root = named || env.HOME;
  if (!root) return undefined;
  const folder = join(named || join(root, format.home.folder), format.sessions, cwd === undefined ? '' : (format.folderOf?.(cwd) ?? ''));
  return { place: { root, owner }, folder, format };
}

/** Rollout files looked at, newest first: each names its directory in its first line, so they are opened to find this one's. */
const ROLLOUTS_SCANNED = 200;

async function codexSessions(place: AgentPlace, root: string, cwd: string): Promise<SavedSession[]> {
  const scanned: string[] = [];
  // Year, month and day folders, newest first, then the day's rollouts.
  const walk = async (dir: string, depth: number): Promise<void> => {
    const names = (await entriesInPlace(place, dir)).filter((entry) => entry.directory === depth < 3).map((entry) => entry.name);
    for (const name of names.sort().reverse()) {
      if (scanned.length >= ROLLOUTS_SCANNED) return;
      if (depth < 3) await walk(join(dir, name), depth + 1);
      else if (name.startsWith('rollout-') && name.endsWith('.jsonl')) scanned.push(join(dir, name));
    }
  };
  await walk(root, 0);
  const sessions: SavedSession[] = [];
  // Read in batches of the number listed: most rollouts are other directories', and the owner's check is one process a batch.
  for (let at = 0; at < scanned.length && sessions.length < LISTED; at += LISTED) {
    const batch = scanned.slice(at, at + LISTED);
    const read = await readInPlace(place, batch, READ_BYTES);
    const byPath = new Map(read.map((file) => [file.path, file]));
    for (const file of batch) {
      const got = byPath.get(file);
      const session = got && codexSession(file, linesOf(got.data), got.info.mtimeMs, cwd);
      if (session) sessions.push(session);
      if (sessions.length >= LISTED) break;
    }
  }
  return sessions;
}

function codexSession(file: string, lines: string[], mtimeMs: number, cwd: string): SavedSession | undefined {
  const meta = jsonOf<{ payload?: { id?: string; cwd?: string; timestamp?: string } }>(lines[0] ?? '');
  if (meta?.payload?.cwd !== cwd || !meta.payload.id) return undefined;
  let firstPrompt: string | undefined;
  let turns = 0;
  for (const line of lines.slice(1)) {
    if (!line.includes('"role":"user"')) continue;
    const entry = jsonOf<{ type?: string; payload?: { type?: string; role?: string; content?: { type?: string; text?: string }[] } }>(line);
    const text = entry?.payload?.content?.find((part) => part.type === 'input_text')?.text;
    // Codex puts its own context in user messages too, as <tagged> blocks.
    if (entry?.type !== 'response_item' || entry.payload?.role !== 'user' || !text || /^<[a-z_]+>/.test(text)) continue;
    turns++;
    firstPrompt ??= text;
  }
  if (firstPrompt === undefined) return undefined;
  return { id: meta.payload.id, firstPrompt, startedAt: Date.parse(meta.payload.timestamp ?? '') || mtimeMs, lastAt: mtimeMs, turns, file };
}

async function claudeSessions(place: AgentPlace, dir: string): Promise<SavedSession[]> {
  const files = (await entriesInPlace(place, dir)).filter((entry) => !entry.directory && entry.name.endsWith('.jsonl'));
  const newest = files.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, LISTED);
  const paths = newest.map((file) => file.path);
  const read = await readInPlace(place, paths, READ_BYTES);
  const sessions = read.map((file) => claudeSession(file.path, linesOf(file.data), file.info.mtimeMs));
  return sessions.filter((session) => session !== undefined).sort((a, b) => b.lastAt - a.lastAt);
}

function claudeSession(file: string, lines: string[], mtime: number): SavedSession | undefined {
  let firstPrompt: string | undefined;
  let startedAt = mtime;
  let turns = 0;
  for (const line of lines) {
    // None from a line cut by the read limit, or torn.
    const entry = jsonOf<{ type?: string; timestamp?: string; message?: { role?: string; content?: unknown } }>(line);
    // A prompt is a user message of text; tool results come back as user messages too, as arrays.
    if (entry?.type !== 'user' || typeof entry.message?.content !== 'string') continue;
    turns++;
    if (firstPrompt === undefined) {
      firstPrompt = entry.message.content;
      if (entry.timestamp) startedAt = Date.parse(entry.timestamp) || mtime;
    }
  }
  return firstPrompt === undefined ? undefined : { id: basename(file, '.jsonl'), firstPrompt, startedAt, lastAt: mtime, turns, file };
}

/** A file's first lines (a line cut by the read limit is dropped by JSON.parse later). */
function linesOf(data: Buffer): string[] {
  return data.toString('utf8').split('\n').filter(Boolean);
}
