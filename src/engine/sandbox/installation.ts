import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import which from 'which';

/** What a CLI's walls must show of the host for it to run, read-only, and the path it is run by. */
export interface Installation {
  /** The real path of what runs: a link to it (node_modules/.bin) is not inside. */
  command: string;
  readOnly: string[];
}

/** How much of a script is read for the programs it runs: a launcher is a few lines. */
const SCRIPT_BYTES = 16 * 1024;

/**
 * What a CLI needs of its installation: what will run, found as the bridge's own spawn would
 * find it (a path, or a name on the launch's PATH, such as npm start's node_modules/.bin),
 * with the whole node_modules it is in (its native binary comes in a package beside it), else
 * its own folder; for a script, what it runs (its interpreter, and the programs it names by
 * path: a shim that execs a native binary elsewhere); and the runtime that runs this bridge
 * (its CLIs' node). The system's directories are in every sandbox already.
 */
export function installation(command: string, path: string | undefined, cwd = process.cwd()): Installation {
  const found = command.includes('/') ? resolve(cwd, command) : which.sync(command, { path: path ?? '', nothrow: true });
  const real = found ? realOrNot(found) : undefined;
  const readOnly: string[] = [];
  if (real) {
    readOnly.push(installedIn(real));
    for (const program of programsOfScript(real, path)) readOnly.push(installedIn(program));
  }
  const node = realOrNot(process.execPath);
  if (node) readOnly.push(installedIn(node, dirname(dirname(node))));
  return { command: real ?? command, readOnly: [...new Set(readOnly)].filter((dir) => !SYSTEM.test(dir)) };
}

const SYSTEM = /^\/(usr|bin|sbin|lib\w*)(\/|$)/;

/** The node_modules a file is in, else `otherwise` (by default its folder). */
function installedIn(real: string, otherwise = dirname(real)): string {
  const modules = real.indexOf(`${sep}node_modules${sep}`);
  return modules >= 0 ? real.slice(0, modules + `${sep}node_modules`.length) : otherwise;
}

/**
 * The programs a script runs that are not beside it: its interpreter (`#!/opt/node/bin/node`,
 * or `#!/usr/bin/env node` found on PATH) and every executable file it names by absolute path.
 * Not a file of text with `#!`: none.
 */
function programsOfScript(real: string, path: string | undefined): string[] {
  const text = head(real);
  if (!text?.startsWith('#!')) return [];
  const programs: string[] = [];
  const shebang = text
    .slice(2, text.indexOf('\n') >>> 0)
    .trim()
    .split(/\s+/);
  if (/(^|\/)env$/.test(shebang[0] ?? '')) {
    const name = shebang.slice(1).find((word) => !word.startsWith('-'));
    const interpreter = name ? which.sync(name, { path: path ?? '', nothrow: true }) : null;
    if (interpreter) programs.push(interpreter);
  }
  for (const [named] of text.matchAll(/(?<![\w.~$-])\/[\w.@+-]+(?:\/[\w.@+-]+)*/g)) programs.push(named);
  return programs.flatMap((program) => {
    const resolved = realOrNot(program);
    return resolved && resolved !== real && isExecutableFile(resolved) ? [resolved] : [];
  });
}

function head(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(SCRIPT_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, SCRIPT_BYTES, 0)).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isExecutableFile(file: string): boolean {
  const info = statSync(file, { throwIfNoEntry: false });
  return info !== undefined && info.isFile() && (info.mode & 0o111) !== 0;
}

function realOrNot(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}
