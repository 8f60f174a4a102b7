import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout the bridge runs from: the nearest folder above this file that holds the
 * package's `package.json`. Found, not counted, since the code runs from src/ (tests, tsx)
 * and from dist/server/ (npm start), one folder deeper.
 */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'adapters'))) return dir;
    if (dirname(dir) === dir) throw new Error(`jsonl-bridge: no checkout (package.json beside adapters/) above ${from}`);
  }
}
