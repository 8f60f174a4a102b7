import { runAsker, type Asker } from '../approvals/asker.ts';
import { chatKey } from '../ports/transport.ts';
import type { Requester, SubagentRunRecord } from '../subagents/record.ts';
import type { SpawnOrigin } from '../subagents/spawner.ts';
import type { ToolScope } from './scope.ts';
import { error, type ToolDeps, type ToolResult } from './tool.ts';

/**
 * Where the caller's runs start from: a main session's chat (its directory and CLI, depth
 * 0, asking the chat if the session does), or the calling run itself (its directory, CLI, depth and tool policy).
 */
export function origin(scope: ToolScope, deps: ToolDeps): SpawnOrigin {
  const sessionId = scope.sessionId();
  const requester: Requester = { kind: 'agent', chatKey: chatKey(scope.address), ...(sessionId ? { sessionId } : {}) };
  const base = { address: scope.address, requester, ...(sessionId ? { requesterSessionId: sessionId } : {}) };
  const caller = callerRun(scope, deps);
  if (caller) return { ...base, cwd: caller.cwd, cli: caller.cli, depth: caller.depth, ...(caller.policy ? { policy: caller.policy } : {}) };
  // A main session that asks before its tools run starts runs that ask too.
  return { ...base, ...deps.chatDefaults(scope.address), depth: scope.depth, ...(scope.asker ? { policy: { approvals: true } } : {}) };
}

/** The run the calling session is, when it is one. */
export function callerRun(scope: ToolScope, deps: ToolDeps): SubagentRunRecord | undefined {
  return scope.runId ? deps.subagents.registry.get(scope.runId) : undefined;
}

/** Whose questions the caller's tool calls are: its main session's, or its run's. */
export function askerOf(scope: ToolScope, deps: ToolDeps): Asker | undefined {
  if (scope.asker) return scope.asker();
  const run = callerRun(scope, deps);
  return run && runAsker(run, () => deps.subagents.registry.holdTimeout(run.runId));
}

export function runsOfChat(scope: ToolScope, deps: ToolDeps): SubagentRunRecord[] {
  return deps.subagents.registry.forChat(chatKey(scope.address));
}

/** A run of the caller's chat, by id or #number, or the error the agent reads. */
export async function withRun(
  scope: ToolScope,
  deps: ToolDeps,
  id: string,
  use: (run: SubagentRunRecord) => ToolResult | Promise<ToolResult>,
): Promise<ToolResult> {
  const run = deps.subagents.registry.find(chatKey(scope.address), id);
  if (!run) return error(`No run "${id}" in this chat. list_subagents shows them.`);
  return use(run);
}
