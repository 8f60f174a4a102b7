import { formatHostRule } from '../../engine/sandbox/host-rules.ts';
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
