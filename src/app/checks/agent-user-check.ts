import { agentSpace, type AgentUser } from '../../engine/process/agent-user.ts';
import type { Sandbox } from '../../engine/sandbox/sandbox-decision.ts';
import { pass, warn, type CheckResult } from '../../kernel/ports/check-result.ts';

/** Who agents run as: their own user, the bridge's in walls, or (warned) the bridge's without walls, whose environment and data they could then read. */
export function checkAgentUser(user: AgentUser | undefined, sandbox: Sandbox): CheckResult {
  const subject = 'agent user';
  if (!user && sandbox.decision.on)
    return pass(subject, `agents run as the bridge's own user (uid ${process.getuid?.() ?? '?'}), in walls that hide its environment and data directory`);
  if (!user)
    return warn(
      subject,
      `agents run as the bridge's own user (uid ${process.getuid?.() ?? '?'}): their tools can read the bot token from its environment and every secret in the data directory`,
      'Make a user for them (useradd --create-home --shell /bin/bash jsonl-agent), give it its own CLI credentials, and set BRIDGE_AGENT_USER=jsonl-agent.',
    );
  return pass(subject, `${user.name} (uid ${user.uid}), home ${user.home}, files in ${agentSpace(user)}; the CLIs below are asked as this user`);
}
