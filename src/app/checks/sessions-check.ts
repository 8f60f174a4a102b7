import { statSync } from 'node:fs';
import type { Adapter } from '../../engine/adapters/load.ts';
import { sessionsAt } from '../../engine/adapters/saved-sessions.ts';
import { agentUser, asAgent } from '../../engine/process/agent-user.ts';
import type { Sandbox } from '../../engine/sandbox/sandbox-decision.ts';
import { fail, type CheckResult } from '../../kernel/ports/check-result.ts';
import { nearestExisting, writableBy } from './system-checks.ts';

/**
 * Whether the CLI, as the user it runs as, can write where it keeps its sessions (a folder
 * a root process made in the agent user's home is not): a CLI that cannot saves none, and
 * every turn then starts afresh and /resume finds nothing, with nothing said. In walls each
 * CLI keeps them in its sandbox's own home, which the bridge makes: nothing to check there.
 * Undefined when it can, when the CLI saves no sessions the bridge knows of, or when the CLI
 * itself is not there to run (`cli`: what its own checks found).
 */
export function checkSessionsWritable(
  adapter: Adapter,
  env: Record<string, string | undefined>,
  sandbox: Sandbox,
  cli: CheckResult[],
): CheckResult | undefined {
  if (sandbox.decision.on || !adapter.savedSessions || cli.some((result) => !result.ok || result.optional)) return undefined;
  const user = agentUser();
  const dir = sessionsAt(adapter.savedSessions, asAgent(env, user?.home ?? process.cwd()).env)?.folder;
  if (!dir) return undefined;
  const existing = nearestExisting(dir);
  if (writableBy(existing, user?.uid, user?.gid)) return undefined;
  const info = statSync(existing);
  const who = user ? `${user.name} (uid ${user.uid})` : `this user (uid ${process.getuid?.() ?? '?'})`;
  return fail(
    `${adapter.name} sessions`,
    `${who} cannot write ${existing} (owner uid ${info.uid}, mode ${(info.mode & 0o777).toString(8)}), where ${adapter.name} keeps its sessions, so no later turn or /resume can continue one`,
    `Give it to that user: chown -R ${user ? `${user.name}:` : (process.getuid?.() ?? '')} ${existing}`,
  );
}
