import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` (and `npm ci`'s prepare) puts the web pages. */
export const PAGES_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url));

export function pagesBuilt(dir = PAGES_DIR): boolean {
  return existsSync(join(dir, 'index.html'));
}
