import { isToolRule, ruleCovers } from './tool-rules.ts';

/**
 * What a run may do with its tools. Lists go to the CLI's own flags; approvals come from
 * the chat through the bridge's permission tool.
 */
export interface ToolPolicy {
  /** Only these tools (the CLI's names) exist for the run. */
  allowedTools?: string[];
  /** These tools are removed. */
  disallowedTools?: string[];
  /** Ask the chat before tools that need permission (instead of bypassing permissions). */
  approvals: boolean;
  /**
   * With `approvals`: the CLI asks the bridge before each call only so that the tool policy's
   * rules (tool-policy.json) hold; what no rule covers runs without asking, as in `bypass`.
   */
  ruledOnly?: boolean;
  /** Approve these tools without asking, within bounds; the rest are asked in the chat. */
  autoApprove?: AutoApprove;
  /** Only tools that read, with the CLI's read-only mode (a `safe` chat): nothing lifts it. */
  readOnly?: boolean;
}

export interface AutoApprove {
  tools: string[];
  /** Auto-approval ends this long after the run starts. */
  maxDurationSeconds: number;
  perMinute: number;
  perRun: number;
  revoked?: { by: string; at: number };
}

/** The seed's bounds: auto-approval is time-boxed and rate-limited, never open-ended. */
export const AUTO_APPROVE_BOUNDS = {
  maxDurationSeconds: { min: 60, max: 14_400, default: 3_600 },
  perMinute: { min: 10, max: 300, default: 60 },
  perRun: { min: 1, max: 10_000, default: 1_000 },
} as const;

export class PolicyError extends Error {
  override name = 'PolicyError';
  constructor(
    readonly code: 'INVALID_PERMISSION_CONFIG' | 'INVALID_ARGUMENT',
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export interface PolicyRequest {
  allowedTools?: string[];
  disallowedTools?: string[];
  ask?: boolean;
  autoApprove?: boolean | Partial<Omit<AutoApprove, 'tools' | 'revoked'>>;
}

/** Builds and checks a run's policy; throws PolicyError naming the rule it breaks. */
export function buildPolicy(request: PolicyRequest): ToolPolicy | undefined {
  const allowed = clean(request.allowedTools, 'allowed');
  const disallowed = clean(request.disallowedTools, 'disallowed');
  const both = allowed?.filter((tool) => disallowed?.includes(tool)) ?? [];
  if (both.length) throw new PolicyError('INVALID_ARGUMENT', `${both.join(', ')} cannot be both allowed and disallowed`);
  if (request.autoApprove) {
    // An empty allowlist means "every tool": auto-approving that would approve `rm -rf /`.
    if (!allowed?.length) throw new PolicyError('INVALID_PERMISSION_CONFIG', 'auto-approval requires a non-empty list of allowed tools (--allow)');
    const bounds = typeof request.autoApprove === 'object' ? request.autoApprove : {};
    return {
      allowedTools: allowed,
      disallowedTools: disallowed,
      approvals: true,
      autoApprove: {
        tools: allowed,
        maxDurationSeconds: bounded('maxDurationSeconds', bounds.maxDurationSeconds),
        perMinute: bounded('perMinute', bounds.perMinute),
        perRun: bounded('perRun', bounds.perRun),
      },
    };
  }
  if (!allowed && !disallowed && !request.ask) return undefined;
  return { allowedTools: allowed, disallowedTools: disallowed, approvals: request.ask === true };
}

/**
 * A run started by another run gets no more than its parent: only tools the parent has,
 * none the parent lacks, the chat's approvals if the parent needed them, and auto-approval
 * only for what the parent itself had auto-approved. Throws PolicyError when the child asks
 * for what the parent may not give.
 */
export function narrowPolicy(parent: ToolPolicy | undefined, child: ToolPolicy | undefined): ToolPolicy | undefined {
  if (!parent) return child;
  let allowed = child?.allowedTools ?? parent.allowedTools;
  if (parent.allowedTools && child?.allowedTools) {
    allowed = child.allowedTools.filter((tool) => parent.allowedTools!.some((rule) => ruleCovers(rule, tool)));
    // An empty list would mean "every tool" to the CLI: the opposite of what is meant.
    if (!allowed.length)
      throw new PolicyError(
        'INVALID_PERMISSION_CONFIG',
        `none of ${child.allowedTools.join(', ')} is allowed for the run that starts this one (it has ${parent.allowedTools.join(', ')})`,
      );
  }
  const disallowed = [...new Set([...(parent.disallowedTools ?? []), ...(child?.disallowedTools ?? [])])];
  // A parent asking only for the tool policy's sake passes nothing on: the child's own spawn meets the rules afresh.
  const approvals = (parent.approvals && !parent.ruledOnly) || (child?.approvals ?? false);
  const autoApprove = child?.autoApprove;
  if (autoApprove && parent.approvals && !parent.ruledOnly) {
    const granted = parent.autoApprove && !parent.autoApprove.revoked ? parent.autoApprove.tools : [];
    const beyond = autoApprove.tools.filter((tool) => !granted.includes(tool));
    if (beyond.length)
      throw new PolicyError('INVALID_PERMISSION_CONFIG', `cannot auto-approve ${beyond.join(', ')}: the run that starts this one asks the chat for them`);
  }
  const narrowed: ToolPolicy = {
    ...(parent.readOnly || child?.readOnly ? { readOnly: true } : {}),
    allowedTools: allowed,
    ...(disallowed.length ? { disallowedTools: disallowed } : {}),
    approvals,
    ...(autoApprove ? { autoApprove: { ...autoApprove, tools: autoApprove.tools.filter((tool) => !allowed || allowed.includes(tool)) } } : {}),
  };
  return narrowed.allowedTools || narrowed.disallowedTools || narrowed.approvals || narrowed.readOnly ? narrowed : undefined;
}

function clean(tools: string[] | undefined, which: string): string[] | undefined {
  if (!tools) return undefined;
  const list = [...new Set(tools.map((tool) => tool.trim()).filter(Boolean))];
  const bad = list.filter((tool) => !isToolRule(tool));
  if (bad.length)
    throw new PolicyError(
      'INVALID_ARGUMENT',
      `not a tool or a permission rule (Tool, Tool(specifier), mcp__server__tool) in the ${which} tools: ${bad.join(', ')}`,
    );
  return list.length ? list : undefined;
}

function bounded(name: keyof typeof AUTO_APPROVE_BOUNDS, value: number | undefined): number {
  const { min, max, default: fallback } = AUTO_APPROVE_BOUNDS[name];
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) throw new PolicyError('INVALID_ARGUMENT', `${name} must be ${min}-${max}, got ${value}`);
  return value;
}
