import { homedir } from 'node:os';

/** A directory as people read it: the home directory as `~`. */
export function displayPath(dir: string, home = homedir()): string {
  if (home && home !== '/' && (dir === home || dir.startsWith(`${home}/`))) return `~${dir.slice(home.length)}`;
  return dir;
}
