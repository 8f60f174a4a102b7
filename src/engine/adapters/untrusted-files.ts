import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Adapter } from './load.ts';

/**
 * Why this CLI must not start in `cwd` untrusted, or undefined: a configuration file the CLI
 * reads from the project (its directory or one above it) and cannot be told to ignore (droid's
 * `.factory/mcp.json` starts commands, its `.factory/settings.json` runs hooks). The CLI
 * user's own home holds their user-wide configuration, not a repository's, so it is passed over.
 */
export function untrustedConfigFound(adapter: Pick<Adapter, 'name' | 'untrustedFiles'>, cwd: string, home: string | undefined): string | undefined {
  if (!adapter.untrustedFiles.length) return undefined;
  const skip = home ? resolve(home) : undefined;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (dir !== skip) {
      const found = adapter.untrustedFiles.map((file) => join(dir, file)).find((path) => existsSync(path));
      if (found)
        return `${found} is configuration that ${adapter.name} would use (it can start commands) and cannot be told to ignore, and this directory is not trusted: remove it, or have the owner /trust the directory.`;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
