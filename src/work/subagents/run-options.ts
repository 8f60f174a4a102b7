import { canAsk } from '../../engine/adapters/permissions.ts';
import type { Adapter } from '../../engine/adapters/load.ts';
import { unsupportedOption, type TurnOptions } from '../../engine/adapters/turn-options.ts';
import type { SubagentRunRecord } from './record.ts';

type RunChoices = Pick<SubagentRunRecord, 'model' | 'policy' | 'maxTurns' | 'agents'>;

/** What a run's turns ask of its CLI, from its record (or its request, at spawn). */
export function runTurnOptions(run: RunChoices): TurnOptions {
  return {
    model: run.model,
    allowedTools: run.policy?.allowedTools,
    disallowedTools: run.policy?.disallowedTools,
    maxTurns: run.maxTurns,
    agents: run.agents,
  };
}

/** A run its CLI cannot carry out is refused at spawn, not mid-run: the sentence says why. */
export function unsupportedRun(adapter: Adapter, run: RunChoices): string | undefined {
  const option = unsupportedOption(adapter, runTurnOptions(run));
  if (option) return `${option}.`;
  if (run.policy?.readOnly && !adapter.permissions.safe) return `${adapter.name} has no read-only mode (no permissions.safe in ${adapter.file}).`;
  // A permission-prompt tool, or a CLI whose every run is live (ACP) and asks the chat directly.
  if (run.policy?.approvals && !canAsk(adapter)) return `${adapter.name} cannot ask the chat for approvals (its adapter has no permission-prompt tool).`;
  return undefined;
}
