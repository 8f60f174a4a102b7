import { quote } from 'shell-quote';
import which from 'which';
import { fill } from './argv.ts';
import type { Adapter } from './load.ts';

/**
 * The terminal command that continues a session in the CLI's own interactive mode, in its
 * directory, as the user the bridge runs agents as (their credentials and sessions are
 * theirs): what `/handoff` and `/status` show. None where the CLI cannot be handed a session.
 * The CLI is named by the path the bridge finds it at (`searchPath`, the bridge's PATH, which
 * `npm start` gives node_modules/.bin): a plain shell's PATH may not have it. A chat whose CLI
 * runs in walls keeps its sessions in a home of its own (`home`): the command runs with it.
 */
export function handoffCommand(
  adapter: Pick<Adapter, 'handoff' | 'resolvedCommand'>,
  sessionId: string,
  workdir: string,
  where: { agentUser?: string; home?: string; searchPath?: string } = {},
): string | undefined {
  if (!adapter.handoff) return undefined;
  const cli = which.sync(adapter.resolvedCommand, { path: where.searchPath ?? process.env.PATH ?? '', nothrow: true }) ?? adapter.resolvedCommand;
  // An assignment, not quoted whole: a quoted `HOME=…` would be taken for the command's name.
  const withHome = where.home ? `HOME=${quote([where.home])} ` : '';
  const inDirectory = `cd ${quote([workdir])} && ${withHome}${quote([cli, ...fill(adapter.handoff, { sessionId })])}`;
  return where.agentUser ? `sudo -u ${quote([where.agentUser])} -H sh -c ${quote([inDirectory])}` : inDirectory;
}
