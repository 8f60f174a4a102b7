import type { Log } from '../log/logger.ts';
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
