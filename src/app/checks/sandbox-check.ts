import { formatHostRule } from '../../engine/sandbox/host-rules.ts';
import { agentSpace, type AgentUser } from '../../engine/process/agent-user.ts';
import type { Sandbox } from '../../engine/sandbox/sandbox-decision.ts';
import { pass, warn, type CheckResult } from '../../kernel/ports/check-result.ts';

/** Whether every CLI runs in its walls, and why (BRIDGE_SANDBOX=bwrap that cannot run never gets here: the configuration refuses it). */
export function checkSandbox(sandbox: Sandbox): CheckResult {
  const subject = 'sandbox';
  const { decision, allow, internal } = sandbox;
  const opened = internal.length ? `; of internal addresses, a chat's list may open ${internal.map(formatHostRule).join(', ')} (BRIDGE_SANDBOX_INTERNAL)` : '';
  if (decision.on)
    return pass(
      subject,
      `${decision.why}; beyond its model API it reaches ${allow.length ? allow.map(formatHostRule).join(', ') : 'no host'} (BRIDGE_SANDBOX_ALLOW)${opened}`,
    );
  if (decision.why === 'BRIDGE_SANDBOX=off')
    return warn(
      subject,
      'off (BRIDGE_SANDBOX=off): each CLI reads what its user may read and reaches any host',
      'Set BRIDGE_SANDBOX=auto to put each CLI in walls.',
    );
  return warn(subject, decision.why, decision.fix ?? 'Set BRIDGE_SANDBOX=auto to put each CLI in walls.');
}

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
