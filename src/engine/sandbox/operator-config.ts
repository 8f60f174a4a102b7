import { helperFailure, runAs, type Owner } from './helper-env.ts';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CliConfig } from './wall-scope.ts';

/*
 * What a CLI obeys is the operator's, never the agent's. A chat's home is writable and kept,
 * so every file there that a CLI (or the tools it runs) reads as configuration is bound
 * read-only over it inside the walls, from the operator's own home at each start; where the
 * operator has none, a blank, so the agent cannot make one either. The folders holding them
 * are bound onto themselves, so none can be renamed away with its contents replaced.
 */

/** What every CLI's tools read as code: git's settings are the operator's; a shell's, npm's and ssh's are none. */
const EVERY_CLI = ['.gitconfig', '.config/git/'];
const BLANK_FOR_EVERY_CLI = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.npmrc',
  '.ssh/',
];

/** One path of the home's configuration: the operator's copy of it, or (absent there, or never taken) a blank. */
export interface ConfigEntry {
  path: string;
  folder: boolean;
  /** False: always a blank, whatever the operator has (a shell's startup files: the bridge's own user's may hold secrets). */
  operators: boolean;
}

/** The configuration a home holds for `cli`, and for the tools of every CLI. */
export function configEntries(cli: CliConfig | undefined): ConfigEntry[] {
  const entry = (path: string, operators: boolean): ConfigEntry => ({ path: path.replace(/\/$/, ''), folder: path.endsWith('/'), operators });
  const entries = [...EVERY_CLI, ...(cli?.config ?? [])].map((path) => entry(path, true));
  return [...entries, ...BLANK_FOR_EVERY_CLI.map((path) => entry(path, false))];
}

/** The folders above the entries (`.claude`, `.config`), shallowest first: made real folders, and pinned inside. */
export function configFolders(entries: ConfigEntry[]): string[] {
  const folders = new Set<string>();
  for (const { path } of entries) for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) folders.add(dir);
  const own = new Set(entries.map((entry) => entry.path));
  return [...folders].filter((dir) => !own.has(dir)).sort((a, b) => a.split('/').length - b.split('/').length);
}

/** A job for LAY_SCRIPT: run as the sandbox's uid, so a link the agent planted reaches nothing its uid may not. */
interface LayJob {
  /** `walls`: clears what the agent left at the configuration's paths in its home; `terminal`: lays a home for a terminal (see terminalHome). */
  kind: 'walls' | 'terminal';
  home: string;
  source: string;
  folders: string[];
  entries: ConfigEntry[];
  fields: Record<string, string[]>;
  /** For `terminal`: the chat's home, whose other entries are linked in. */
  chat?: string;
}

/**
 * Clears `home` (a chat's, kept across turns) of what was left at its configuration's paths:
 * anything there but an empty file or folder (where a running sandbox's bind sits) goes, a
 * link in a folder's place too, and the operator's fields are reset. Returns the entries the
 * operator has (read as the sandbox's uid): those are bound from `source`, the rest blank.
 */
export function clearConfig(source: string, home: string, cli: CliConfig | undefined, owner: Owner): Set<string> {
  return new Set(runLay({ kind: 'walls', home, source }, cli, owner));
}

/**
 * A home for a terminal to continue a chat's session in (`/handoff`), beside the chat's: its
 * configuration the operator's, copied now, and blanks; every other entry of the chat's home a
 * link to it, so the session, its login and what the terminal adds are the chat's. Nothing the
 * agent wrote is read there as configuration.
 */
export function layTerminalHome(source: string, chat: string, cli: CliConfig | undefined, owner: Owner): string {
  const home = terminalHomeOf(chat);
  runLay({ kind: 'terminal', home, source, chat }, cli, owner);
  return home;
}

/** Where the terminal's home for a chat's home is: beside it. */
export function terminalHomeOf(chat: string): string {
  return `${chat}.terminal`;
}

/** Runs LAY_SCRIPT on `cli`'s configuration; the entries the operator has. */
function runLay(job: Omit<LayJob, 'folders' | 'entries' | 'fields'>, cli: CliConfig | undefined, owner: Owner): string[] {
  const entries = configEntries(cli);
  const whole: LayJob = { ...job, folders: configFolders(entries), entries, fields: cli?.operatorFields ?? {} };
  try {
    return JSON.parse(runAs(owner, process.execPath, ['-e', LAY_SCRIPT, JSON.stringify(whole)]).toString()) as string[];
  } catch (error) {
    throw new Error(`the sandbox's home could not be given the operator's configuration: ${helperFailure(error)}`, { cause: error });
  }
}

/** Read-only placeholders the bridge made (an empty file, `{}`, an empty folder): what a blank entry is bound from. */
export interface Blanks {
  file: string;
  json: string;
  folder: string;
}

let blanks: Blanks | undefined;

/** The bridge's blanks, made once in `parent` (where the sandbox's uid reaches) with a name the next start clears if this process is killed. */
export function madeBlanks(parent: string): Blanks {
  if (blanks && dirname(dirname(blanks.file)) === parent && existsSync(blanks.folder)) return blanks;
  const dir = mkdtempSync(join(parent, `jsonl-bridge-blank-${process.pid}-`));
  const made = { file: join(dir, 'empty'), json: join(dir, 'empty.json'), folder: join(dir, 'folder') };
  writeFileSync(made.file, '', { mode: 0o444 });
  writeFileSync(made.json, '{}', { mode: 0o444 });
  mkdirSync(made.folder, { mode: 0o555 });
  chmodSync(dir, 0o755);
  return (blanks = made);
}

/** A bind: a path of the host shown at a path inside. */
export interface Bind {
  from: string;
  to: string;
}

/** What the walls bind over the home inside (`inside`): its configuration's folders onto themselves, then each entry read-only. */
export function configBinds(
  cli: CliConfig | undefined,
  home: { host: string; inside: string; source: string },
  present: Set<string>,
  blank: Blanks,
): { pinned: Bind[]; readOnly: Bind[] } {
  const entries = configEntries(cli);
  const pinned = configFolders(entries).map((dir) => ({ from: join(home.host, dir), to: join(home.inside, dir) }));
  const readOnly = entries.map((entry) => ({
    from: present.has(entry.path) ? join(home.source, entry.path) : entry.folder ? blank.folder : entry.path.endsWith('.json') ? blank.json : blank.file,
    to: join(home.inside, entry.path),
  }));
  return { pinned, readOnly };
}

/*
 * Run by node as the sandbox's uid with a LayJob; prints the entries the operator has. Plain
 * JavaScript: it runs outside this bridge's loader. No link is followed in the home laid; the
 * operator's files are read through theirs (they are the operator's, read as that uid).
 */
const LAY_SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const job = JSON.parse(process.argv[1]);
const at = (p) => { try { return fs.lstatSync(p); } catch (e) { if (e.code === 'ENOENT') return undefined; throw e; } };
const gone = (p) => fs.rmSync(p, { recursive: true, force: true });
const present = [];
for (const e of job.entries) {
  if (!e.operators) continue;
  const from = path.join(job.source, e.path);
  try { fs.statSync(from); } catch (err) { if (err.code === 'ENOENT' || err.code === 'ENOTDIR') continue; throw new Error('~/' + e.path + ' of ' + job.source + ': ' + err.code); }
  fs.accessSync(from, fs.constants.R_OK);
  present.push(e.path);
}
if (job.kind === 'terminal') fs.mkdirSync(job.home, { recursive: true, mode: 0o700 });
for (const dir of job.folders) {
  const p = path.join(job.home, dir);
  const s = at(p);
  if (s && !s.isDirectory()) gone(p);
  if (!s || !s.isDirectory()) fs.mkdirSync(p, { mode: 0o700 });
}
for (const e of job.entries) {
  const p = path.join(job.home, e.path);
  const s = at(p);
  if (job.kind === 'walls') {
    const stub = s && (e.folder ? s.isDirectory() && fs.readdirSync(p).length === 0 : s.isFile() && s.size === 0);
    if (s && !stub) gone(p);
    continue;
  }
  if (s) gone(p);
  if (present.includes(e.path)) fs.cpSync(path.join(job.source, e.path), p, { recursive: true, dereference: true });
  else if (e.folder) fs.mkdirSync(p, { mode: 0o700 });
  else fs.writeFileSync(p, e.path.endsWith('.json') ? '{}' : '', { mode: 0o600 });
}
const readJson = (p) => { try { const v = JSON.parse(fs.readFileSync(p, 'utf8')); return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined; } catch { return undefined; } };
for (const [file, keys] of Object.entries(job.fields)) {
  const p = path.join(job.home, file);
  if (job.kind === 'terminal' && !at(p)) { const chat = readJson(path.join(job.chat, file)); if (chat) fs.writeFileSync(p, JSON.stringify(chat), { mode: 0o600 }); }
  const s = at(p);
  if (!s) continue;
  if (!s.isFile()) { gone(p); continue; }
  const mine = readJson(p);
  if (!mine) { gone(p); continue; }
  const theirs = readJson(path.join(job.source, file)) || {};
  let changed = false;
  for (const key of keys) {
    const want = JSON.stringify(theirs[key]);
    if (JSON.stringify(mine[key]) === want) continue;
    if (want === undefined) delete mine[key]; else mine[key] = theirs[key];
    changed = true;
  }
  if (!changed) continue;
  const temp = p + '.jsonl-bridge-' + process.pid;
  fs.writeFileSync(temp, JSON.stringify(mine, null, 2), { mode: 0o600 });
  fs.renameSync(temp, p);
}
if (job.kind === 'terminal') {
  const laid = new Set([...job.entries.map((e) => e.path), ...job.folders, ...Object.keys(job.fields)]);
  for (const dir of ['.', ...job.folders]) {
    let names = [];
    try { if (at(path.join(job.chat, dir))?.isDirectory()) names = fs.readdirSync(path.join(job.chat, dir)); } catch {}
    for (const name of names) {
      const rel = path.join(dir, name);
      if (laid.has(rel) || at(path.join(job.home, rel))) continue;
      fs.symlinkSync(path.join(job.chat, rel), path.join(job.home, rel));
    }
  }
}
process.stdout.write(JSON.stringify(present));
`;
