import { open, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

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

/** The newest sessions the CLI saved for `cwd`, newest first; none when it saved none there. */
export async function readSavedSessions(format: SavedSessionFormat, cwd: string, env: Record<string, string | undefined>): Promise<SavedSession[]> {
  switch (format) {
    case 'claude-projects':
      return claudeSessions(claudeProjectDir(cwd, env));
    case 'codex-rollouts':
      return codexSessions(cwd, env.CODEX_HOME ?? (env.HOME ? join(env.HOME, '.codex') : undefined));
  }
}

/** Rollout files looked at, newest first: each names its directory in its first line, so they are opened to find this one's. */
const ROLLOUTS_SCANNED = 200;

/** Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, whose first line says the session's id and directory. */
async function codexSessions(cwd: string, codexHome: string | undefined): Promise<SavedSession[]> {
  if (!codexHome) return [];
  const files: string[] = [];
  const newestFirst = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).sort().reverse();
  const root = join(codexHome, 'sessions');
  for (const year of await newestFirst(root)) {
    for (const month of await newestFirst(join(root, year))) {
      for (const day of await newestFirst(join(root, year, month))) {
        for (const name of await newestFirst(join(root, year, month, day)))
          if (name.startsWith('rollout-') && name.endsWith('.jsonl')) files.push(join(root, year, month, day, name));
        if (files.length >= ROLLOUTS_SCANNED) break;
      }
      if (files.length >= ROLLOUTS_SCANNED) break;
    }
    if (files.length >= ROLLOUTS_SCANNED) break;
  }
  const sessions: SavedSession[] = [];
  for (const file of files.slice(0, ROLLOUTS_SCANNED)) {
    const session = await codexSession(file, cwd);
    if (session) sessions.push(session);
    if (sessions.length >= LISTED) break;
  }
  return sessions;
}

async function codexSession(file: string, cwd: string): Promise<SavedSession | undefined> {
  const lines = await headLines(file);
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
  const { mtimeMs } = await stat(file);
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
async function claudeSessions(dir: string | undefined): Promise<SavedSession[]> {
  if (!dir) return [];
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names.filter((name) => name.endsWith('.jsonl')).map(async (name) => ({ file: join(dir, name), mtime: (await stat(join(dir, name))).mtimeMs })),
  );
  const newest = files.sort((a, b) => b.mtime - a.mtime).slice(0, LISTED);
  const sessions = await Promise.all(newest.map(({ file, mtime }) => claudeSession(file, mtime)));
  return sessions.filter((session) => session !== undefined);
}

async function claudeSession(file: string, mtime: number): Promise<SavedSession | undefined> {
  let firstPrompt: string | undefined;
  let startedAt = mtime;
  let turns = 0;
  for (const line of await headLines(file)) {
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

async function headLines(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n').filter(Boolean);
  } finally {
    await handle.close();
  }
}
