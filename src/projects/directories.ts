import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';

/** Whether `dir` is `root` or below it; both already resolved (no symlinks, no `..`). */
export function isInside(dir: string, root: string): boolean {
  const path = relative(root, dir);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

export type Resolved = { ok: true; dir: string } | { ok: false; error: string };

/**
 * The directory a chat asks for, as it really is: relative to `from`, `~` for the home
 * directory, with symlinks and `..` resolved before it is checked against the roots, so
 * neither leads out of them. Missing directories and files are refused with a sentence.
 */
export async function resolveDirectory(from: string, wanted: string, roots: readonly string[], home = process.env.HOME): Promise<Resolved> {
  const expanded = wanted === '~' || wanted.startsWith('~/') ? `${home ?? '~'}${wanted.slice(1)}` : wanted;
  const path = resolve(from, expanded);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, error: `${path} does not exist.` };
  }
  if (!(await stat(real)).isDirectory()) return { ok: false, error: `${path} is not a directory.` };
  if (!roots.some((root) => isInside(real, root))) {
    const where = real === path ? path : `${path} (which is ${real})`;
    return { ok: false, error: `${where} is outside the directories this bot may work in: ${roots.join(', ')} (BRIDGE_PROJECT_ROOTS).` };
  }
  return { ok: true, dir: real };
}
