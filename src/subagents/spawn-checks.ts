import type { Adapter } from '../adapters/load.ts';
import type { SpawnRequest } from './registry.ts';

/** A run whose policy its CLI cannot carry out is refused at spawn, not mid-run. */
export function unsupportedPolicy(adapter: Adapter, request: SpawnRequest): string | undefined {
  const { policy } = request;
  if (policy?.allowedTools && !adapter.options.allowedTools)
    return `${adapter.name} cannot be limited to a list of tools (no options.allowedTools in its adapter).`;
  if (policy?.disallowedTools && !adapter.options.disallowedTools)
    return `${adapter.name} cannot have tools removed (no options.disallowedTools in its adapter).`;
  if (policy?.approvals && (!adapter.permissions.prompt || !adapter.options.mcp))
    return `${adapter.name} cannot ask the chat for approvals (its adapter has no permission-prompt tool).`;
  if (request.maxTurns && !adapter.options.maxTurns) return `${adapter.name} cannot limit its turns (no options.maxTurns in its adapter).`;
  return undefined;
}
