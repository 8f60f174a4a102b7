import { quote } from 'shell-quote';
import { fill } from './argv.ts';
import type { Adapter } from './load.ts';

/**
 * The terminal command that continues a session in the CLI's own interactive mode, in its
 * directory, as the user the bridge runs agents as (their credentials and sessions are
 * theirs): what `/handoff` and `/status` show. None where the CLI cannot be handed a session.
 */
export function handoffCommand(
  adapter: Pick<Adapter, 'handoff' | 'resolvedCommand'>,
  sessionId: string,
  workdir: string,
  agentUser?: string,
): string | undefined {
  if (!adapter.handoff) return undefined;
  const inDirectory = `cd ${quote([workdir])} && ${quote([adapter.resolvedCommand, ...fill(adapter.handoff, { sessionId })])}`;
  return agentUser ? `sudo -u ${quote([agentUser])} -H sh -c ${quote([inDirectory])}` : inDirectory;
}
