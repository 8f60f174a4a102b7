import { tmpdir } from 'node:os';
import type { Log } from '../../kernel/log/logger.ts';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { raiseWalls } from '../sandbox/walls.ts';
import { type WalledClis } from '../sandbox/wall-scope.ts';
import { helperFailure, runAs } from '../sandbox/helper-env.ts';
import { loopbackAllowWarnings } from '../sandbox/loopback-allow.ts';
import type { Sandbox } from '../sandbox/sandbox-decision.ts';
import type { ProxyMetering } from '../sandbox/proxy-metering.ts';
import { agentSpace, runAgentsAs, type AgentUser } from './agent-user.ts';
import { prepareAgentSpace } from './agent-space.ts';
import { removeLeftScratch } from './scratch.ts';
import { bridgeIdentity } from './bridge-identity.ts';
import { sandboxHomes, statePlaces } from './state-places.ts';

/**
 * At the start of the bridge or a worker: agents run as `user` from now on, in a space of its
 * own (made, or checked when it is there), cleared of what a killed predecessor left there.
 * A data directory that user can enter (an ACL, a group, a chown) is refused: there are the
 * secrets it must never read.
 */
export async function startAgentSpace(user: AgentUser | undefined, log: Log, dataDir: string): Promise<void> {
  runAgentsAs(user);
  if (!user) return;
  prepareAgentSpace(user);
  if (opensTo(user, dataDir))
    throw new ConfigError(
      `BRIDGE_DATA_DIR: ${dataDir} is open to the agent user ${user.name}, who must never read it: chown it to the bridge's user, chmod 700, and remove any ACL or group that lets ${user.name} in`,
    );
  await removeLeftScratch(log, agentSpace(user));
}

/** Whether `user` may list or enter `dir`, as the system answers for that uid. */
function opensTo(user: AgentUser, dir: string): boolean {
  try {
    runAs(user, 'sh', ['-c', 'test -r "$1" || test -x "$1"', 'sh', dir]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Who agents run as, said once the bridge or worker is up (a start that fails says only why):
 * as the bridge's own user outside walls, plainly that they can read and change all it keeps.
 */
export function logAgentUser(user: AgentUser | undefined, sandbox: Sandbox, dataDir: string, log: Log): void {
  if (user) log.info(`agents run as ${user.name} (uid ${user.uid}), their files in ${agentSpace(user)}`);
  else if (sandbox.decision.on)
    log.info(`agents run as the bridge’s own user, in walls that hide its environment, its data directory (${dataDir}) and every other sandbox’s home`);
  else
    log.warn(
      `agents run as the bridge’s own user without walls: their tools can read and change its data directory (${dataDir}), its secrets and its environment (set BRIDGE_AGENT_USER, or install bubblewrap and socat)`,
    );
}

/**
 * At the start of the bridge or a worker, after the agent space: the walls go up when the
 * sandbox is on. Each sandbox's home is kept where its uid may reach (bwrap binds it as that
 * uid): the agent user's own home when agents run as one, else the data directory; named for
 * this bridge's identity too, so two bridges with one agent user never share one. The
 * bridge's places are masked inside, whatever a CLI's directory covers. The credential
 * proxies price what they pass by `metering`.
 */
export function startWalls(sandbox: Sandbox, dataDir: string, user: AgentUser | undefined, adapters: WalledClis, metering?: ProxyMetering): void {
  const { decision } = sandbox;
  if (!decision.on) return raiseWalls(decision, { homes: '', sockets: '' });
  const homes = sandboxHomes(dataDir, user);
  try {
    runAs(decision.uid, 'mkdir', ['-p', '-m', '700', homes]);
  } catch (error) {
    throw new ConfigError(`BRIDGE_SANDBOX: the sandboxes' homes are kept in ${homes}, which uid ${decision.uid.uid} cannot make (${helperFailure(error)})`);
  }
  raiseWalls(decision, {
    homes,
    sockets: user ? agentSpace(user) : tmpdir(),
    allow: sandbox.allow,
    internal: sandbox.internal,
    identity: bridgeIdentity(dataDir),
    masked: statePlaces(dataDir, user),
    adapters,
    metering,
  });
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
