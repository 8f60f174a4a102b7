import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../kernel/repo-root.ts';

/** Where `npm run build` (and `npm ci`'s prepare) puts the web pages. */
export const PAGES_DIR = join(REPO_ROOT, 'dist', 'web');

export function pagesBuilt(dir = PAGES_DIR): boolean {
  return existsSync(join(dir, 'index.html'));
}
