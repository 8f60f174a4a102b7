import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { runAs, type Owner } from './helper-env.ts';
import type { ProgramCache } from './wall-scope.ts';

/** How long an unpack may take: a few seconds for Copilot's 235 MB, far more on a loaded machine. */
const FILL_TIMEOUT_MS = 120_000;

/** Whether each folder was unpacked into, by this process: once each (an unpack already there is the CLI's own quick check). */
const filled = new Map<string, boolean>();

/**
 * The folder `command`'s program is unpacked into for every sandbox of this uid: in `homes`,
 * named for the variable that names it and for the installation (another never shares it). The CLI unpacks it itself, as the
 * sandbox's uid outside the walls, with nothing of the bridge's environment; every sandbox
 * sees it read-only, so no agent changes what another chat's CLI runs. Undefined when the
 * unpack failed: the CLI then unpacks into its home, as it would without this.
 */
export function sharedProgram(cache: ProgramCache, command: string, homes: string, owner: Owner): string | undefined {
  const name = `${cache.env.toLowerCase()}-${createHash('sha256').update(command).digest('hex').slice(0, 8)}`;
  const folder = join(homes, '.programs', name);
  let ok = filled.get(folder);
  if (ok === undefined) {
    const as = { stdio: 'ignore' as const, timeout: FILL_TIMEOUT_MS };
    try {
      runAs(owner, 'mkdir', ['-p', '-m', '700', folder], as);
      // Synchronous as the rest of a sandbox's making is: the first start waits for it, once.
      runAs(owner, command, cache.fill.args, { ...as, cwd: folder, env: { ...cache.fill.env, [cache.env]: folder } });
      ok = true;
    } catch {
      ok = false;
    }
    filled.set(folder, ok);
  }
  return ok ? folder : undefined;
}
