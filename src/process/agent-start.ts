import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from '../log/logger.ts';
import { ConfigError } from '../errors/config-error.ts';
import { raiseWalls } from '../sandbox/walls.ts';
import { helperEnv } from '../sandbox/helper-env.ts';
import { loopbackAllowWarnings } from '../sandbox/loopback-allow.ts';
import type { Sandbox } from '../sandbox/sandbox-decision.ts';
import { agentSpace, runAgentsAs, type AgentUser } from './agent-user.ts';
import { prepareAgentSpace } from './agent-space.ts';
import { removeLeftScratch } from './scratch.ts';

/**
 * At the start of the bridge or a worker: agents run as `user` from now on, in a space of its
 * own (made, or checked when it is there), cleared of what a killed predecessor left there.
 */
export async function startAgentSpace(user: AgentUser | undefined, log: Log): Promise<void> {
  runAgentsAs(user);
  if (!user) return;
  prepareAgentSpace(user);
  await removeLeftScratch(log, agentSpace(user));
}

/** Who agents run as, said once the bridge or worker is up (a start that fails says only why). */
export function logAgentUser(user: AgentUser | undefined, log: Log): void {
  if (user) log.info(`agents run as ${user.name} (uid ${user.uid}), their files in ${agentSpace(user)}`);
  else
    log.warn(
      'agents run as the bridge’s own user: their tools can read its environment and data directory (set BRIDGE_AGENT_USER to run them as another user)',
    );
}

/**
 * At the start of the bridge or a worker, after the agent space: the walls go up when the
 * sandbox is on. Each sandbox's home is kept where its uid may reach (bwrap binds it as that
 * uid): the agent user's own home when agents run as one, else the data directory.
 */
export function startWalls(sandbox: Sandbox, dataDir: string, user: AgentUser | undefined): void {
  const { decision } = sandbox;
  if (!decision.on) return raiseWalls(decision, { homes: '', sockets: '' });
  const homes = user ? join(user.home, '.jsonl-bridge', 'homes') : join(dataDir, 'homes');
  try {
    execFileSync('mkdir', ['-p', '-m', '700', homes], { uid: decision.uid.uid, gid: decision.uid.gid, env: helperEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const why = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    throw new ConfigError(`BRIDGE_SANDBOX: the sandboxes' homes are kept in ${homes}, which uid ${decision.uid.uid} cannot make (${why})`);
  }
  raiseWalls(decision, { homes, sockets: user ? agentSpace(user) : tmpdir(), allow: sandbox.allow, internal: sandbox.internal });
}

/** Whether CLIs run in walls, and why, said once the bridge or worker is up. */
export function logSandbox(sandbox: Sandbox, log: Log): void {
  const { decision } = sandbox;
  // Walls off, the CLIs reach this machine's loopback themselves.
  if (decision.on) for (const warning of loopbackAllowWarnings(sandbox.allow)) log.warn(warning);
  if (decision.on) log.info(`sandbox: ${decision.why}`);
  else if (decision.why === 'BRIDGE_SANDBOX=off') log.info('sandbox: off (BRIDGE_SANDBOX=off): CLIs run without walls');
  else log.warn(`sandbox: ${decision.why}`);
}
