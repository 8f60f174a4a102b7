import { quote } from 'shell-quote';
import which from 'which';
import { fill } from './argv.ts';
import type { Adapter } from './load.ts';

/**
 * The terminal command that continues a session in the CLI's own interactive mode, in its
 * directory, as the user the bridge runs agents as (their credentials and sessions are
 * theirs): what `/handoff` and `/status` show. None where the CLI cannot be handed a session.
 * The CLI is named by the path the bridge finds it at (`searchPath`, the bridge's PATH, which
 * `npm start` gives node_modules/.bin): a plain shell's PATH may not have it.
 */
export function handoffCommand(
  adapter: Pick<Adapter, 'handoff' | 'resolvedCommand'>,
  sessionId: string,
  workdir: string,
  agentUser?: string,
  searchPath = process.env.PATH ?? '',
): string | undefined {
  if (!adapter.handoff) return undefined;
  const cli = which.sync(adapter.resolvedCommand, { path: searchPath, nothrow: true }) ?? adapter.resolvedCommand;
  const inDirectory = `cd ${quote([workdir])} && ${quote([cli, ...fill(adapter.handoff, { sessionId })])}`;
  return agentUser ? `sudo -u ${quote([agentUser])} -H sh -c ${quote([inDirectory])}` : inDirectory;
}
