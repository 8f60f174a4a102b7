import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';

/** Whether `dir` is `root` or below it; both already resolved (no symlinks, no `..`). */
export function isInside(dir: string, root: string): boolean {
  const path = relative(root, dir);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

export type Resolved = { ok: true; dir: string } | { ok: false; error: string };

/** Where chats may work: the roots and everything below, but for the bridge's own places (resolved, like the roots). */
export interface WorkPlaces {
  projectRoots: readonly string[];
  offLimits: readonly string[];
}

/** Whether a chat may work in `dir` (already resolved). */
export function mayWorkIn(dir: string, places: WorkPlaces): boolean {
  return places.projectRoots.some((root) => isInside(dir, root)) && !places.offLimits.some((place) => isInside(dir, place));
}

/**
 * The directory a chat asks for, as it really is: relative to `from`, `~` for the home
 * directory, with symlinks and `..` resolved before it is checked against the roots, so
 * neither leads out of them. Missing directories and files are refused with a sentence, and
 * so are the bridge's own places (its data directory, the homes), wherever the roots lie.
 */
export async function resolveDirectory(from: string, wanted: string, places: WorkPlaces, home = process.env.HOME): Promise<Resolved> {
  const roots = places.projectRoots;
  const expanded = wanted === '~' || wanted.startsWith('~/') ? `${home ?? '~'}${wanted.slice(1)}` : wanted;
  const path = resolve(from, expanded);
  const real = await realpath(path).catch(() => undefined);
  if (!real) return { ok: false, error: `${path} does not exist.` };
  if (!(await stat(real)).isDirectory()) return { ok: false, error: `${path} is not a directory.` };
  const where = real === path ? path : `${path} (which is ${real})`;
  if (!roots.some((root) => isInside(real, root)))
    return { ok: false, error: `${where} is outside the directories this bot may work in: ${roots.join(', ')} (BRIDGE_PROJECT_ROOTS).` };
  if (places.offLimits.some((place) => isInside(real, place)))
    return { ok: false, error: `${where} holds the bridge's own state (its data directory or the agents' homes): no chat works there.` };
  return { ok: true, dir: real };
}
