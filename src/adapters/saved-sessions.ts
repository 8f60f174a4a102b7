import { basename, join } from 'node:path';
import { entriesInPlace, readInPlace, type AgentPlace, type Owner } from '../files/agent-place.ts';

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

/** How a CLI keeps its sessions on disk; adapters name theirs in `savedSessions`. */
export const SAVED_SESSION_FORMATS = ['claude-projects', 'codex-rollouts'] as const;
export type SavedSessionFormat = (typeof SAVED_SESSION_FORMATS)[number];

/** Session files are read this far at most: the first prompt and the turn count are near the start. */
const READ_BYTES = 512 * 1024;
const LISTED = 20;

/**
 * The newest sessions the CLI saved for `cwd`, newest first; none when it saved none there.
 * Its home is a place its agent writes: read there without following a link, and, when it is
 * `owner`'s (the agent user's, a sandbox's), only what that uid reads itself (files/agent-place.ts).
 */
export async function readSavedSessions(
  format: SavedSessionFormat,
  cwd: string,
  env: Record<string, string | undefined>,
  owner?: Owner,
): Promise<SavedSession[]> {
  const place = sessionsPlace(format, env, owner);
  if (!place) return [];
  switch (format) {
    case 'claude-projects':
      return claudeSessions(place, claudeProjectDir(cwd, env)!);
    case 'codex-rollouts':
      return codexSessions(place, cwd, codexSessionsDir(env)!);
  }
}

/**
 * The place a CLI keeps its sessions in, as the bridge knows it: the folder the operator named
 * (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`), else the home. Nothing below it is reached through a link.
 */
export function sessionsPlace(format: SavedSessionFormat, env: Record<string, string | undefined>, owner?: Owner): AgentPlace | undefined {
  const root = format === 'claude-projects' ? env.CLAUDE_CONFIG_DIR || env.HOME : (env.CODEX_HOME ?? env.HOME);
  return root ? { root, owner } : undefined;
}

/** Rollout files looked at, newest first: each names its directory in its first line, so they are opened to find this one's. */
const ROLLOUTS_SCANNED = 200;

/** Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, whose first line says the session's id and directory. */
async function codexSessions(place: AgentPlace, cwd: string, root: string): Promise<SavedSession[]> {
  const files: string[] = [];
  const newestFirst = async (dir: string, ofFiles = false) =>
    (await entriesInPlace(place, dir))
      .filter((entry) => entry.directory !== ofFiles)
      .map((entry) => entry.name)
      .sort()
      .reverse();
  for (const year of await newestFirst(root)) {
    for (const month of await newestFirst(join(root, year))) {
      for (const day of await newestFirst(join(root, year, month))) {
        for (const name of await newestFirst(join(root, year, month, day), true))
          if (name.startsWith('rollout-') && name.endsWith('.jsonl')) files.push(join(root, year, month, day, name));
        if (files.length >= ROLLOUTS_SCANNED) break;
      }
      if (files.length >= ROLLOUTS_SCANNED) break;
    }
    if (files.length >= ROLLOUTS_SCANNED) break;
  }
  const sessions: SavedSession[] = [];
  const scanned = files.slice(0, ROLLOUTS_SCANNED);
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
  let meta: { payload?: { id?: string; cwd?: string; timestamp?: string } };
  try {
    meta = JSON.parse(lines[0] ?? '');
  } catch {
    return undefined;
  }
  if (meta.payload?.cwd !== cwd || !meta.payload.id) return undefined;
  let firstPrompt: string | undefined;
  let turns = 0;
  for (const line of lines.slice(1)) {
    if (!line.includes('"role":"user"')) continue;
    let entry: { type?: string; payload?: { type?: string; role?: string; content?: { type?: string; text?: string }[] } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const text = entry.payload?.content?.find((part) => part.type === 'input_text')?.text;
    // Codex puts its own context in user messages too, as <tagged> blocks.
    if (entry.type !== 'response_item' || entry.payload?.role !== 'user' || !text || /^<[a-z_]+>/.test(text)) continue;
    turns++;
    firstPrompt ??= text;
  }
  if (firstPrompt === undefined) return undefined;
  return { id: meta.payload.id, firstPrompt, startedAt: Date.parse(meta.payload.timestamp ?? '') || mtimeMs, lastAt: mtimeMs, turns, file };
}

/** Where Claude Code keeps the sessions of `cwd`: `$CLAUDE_CONFIG_DIR` (or `~/.claude`) `/projects/<cwd with every other character a dash>`. */
export function claudeProjectDir(cwd: string, env: Record<string, string | undefined>): string | undefined {
  const config = env.CLAUDE_CONFIG_DIR || (env.HOME ? join(env.HOME, '.claude') : undefined);
  return config && join(config, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

/** Where codex keeps its sessions: `$CODEX_HOME` (or `~/.codex`) `/sessions`. */
export function codexSessionsDir(env: Record<string, string | undefined>): string | undefined {
  const home = env.CODEX_HOME ?? (env.HOME ? join(env.HOME, '.codex') : undefined);
  return home && join(home, 'sessions');
}

/** Claude Code: `<project dir>/<session id>.jsonl`. */
async function claudeSessions(place: AgentPlace, dir: string): Promise<SavedSession[]> {
  const files = (await entriesInPlace(place, dir)).filter((entry) => !entry.directory && entry.name.endsWith('.jsonl'));
  const newest = files.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, LISTED);
  const read = await readInPlace(
    place,
    newest.map((file) => file.path),
    READ_BYTES,
  );
  const sessions = read.map((file) => claudeSession(file.path, linesOf(file.data), file.info.mtimeMs));
  return sessions.filter((session) => session !== undefined).sort((a, b) => b.lastAt - a.lastAt);
}

function claudeSession(file: string, lines: string[], mtime: number): SavedSession | undefined {
  let firstPrompt: string | undefined;
  let startedAt = mtime;
  let turns = 0;
  for (const line of lines) {
    let entry: { type?: string; timestamp?: string; message?: { role?: string; content?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a line cut by the read limit, or torn
    }
    // A prompt is a user message of text; tool results come back as user messages too, as arrays.
    if (entry.type !== 'user' || typeof entry.message?.content !== 'string') continue;
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
