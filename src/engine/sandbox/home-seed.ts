import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { helperFailure, runAs, type Owner } from './helper-env.ts';

/**
 * Copies what a sandbox's home is given of its uid's own (the agent user's, or the bridge's)
 * for `cli`, as its adapter declares (`walls.login`, `walls.givenOnce`), from `source` into
 * `home`: at first everything there is, afterwards what the operator changed since (newer
 * there than here), so a login renewed outside reaches every chat at its CLI's next start.
 * Never its sessions, history or caches (each chat's own), nor its configuration, bound
 * read-only from the operator's home at every start (operator-config.ts). The copy runs as the
 * sandbox's uid, never as the bridge: the source is a home an agent could once write, and a
 * link planted there must not read for it what its uid may not.
 */
export function seedHome(source: string, home: string, owner: Owner, cli: { login?: string[]; givenOnce?: string[] } | undefined): string[] {
  const copied: string[] = [];
  const copy = (path: string) => {
    copyIntoHome(source, home, path, owner);
    copied.push(path);
  };
  for (const path of cli?.givenOnce ?? []) if (existsSync(join(source, path)) && !existsSync(join(home, path))) copy(path);
  for (const path of cli?.login ?? []) {
    const from = join(source, path);
    if (!existsSync(from)) continue;
    const to = join(home, path);
    if (!existsSync(to) || newest(from) > newest(to)) copy(path);
  }
  return copied;
}

/** Copies `path` (a file or folder, relative to both homes) from one home into another, as the sandbox's uid. */
export function copyIntoHome(source: string, home: string, path: string, owner: Owner): void {
  try {
    runAs(owner, 'mkdir', ['-p', '-m', '700', dirname(join(home, path))]);
    runAs(owner, 'cp', ['-R', '-L', '-T', '--preserve=timestamps', join(source, path), join(home, path)]);
  } catch (error) {
    throw new Error(`the sandbox's home could not be given ~/${path} (${helperFailure(error)}): fix or remove it in ${source}`, { cause: error });
  }
}

/** The newest modification under a path: a folder changes when any file in it does. */
function newest(path: string, depth = 0): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory() || depth > 4) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry), depth + 1));
  return latest;
}
