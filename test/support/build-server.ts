import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest's global setup: the tests start the bridge as `npm start` runs it, from dist/server/,
 * so that is built from the sources under test first (only what changed is written).
 */
export default function buildServer(): void {
  execFileSync('node', [fileURLToPath(new URL('../../scripts/build-server.mjs', import.meta.url))], { stdio: 'inherit' });
}
