import { runAsker, type Asker } from '../approvals/asker.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import { findRun, paidBy, type Requester, type SubagentRunRecord } from '../subagents/record.ts';
import type { SpawnOrigin } from '../subagents/spawner.ts';
import type { ToolScope } from './scope.ts';
import { error, type ToolDeps, type ToolResult } from './tool.ts';

/**
 * Where the caller's runs start from: a main session's chat (its directory and CLI, depth
 * 0, asking the chat if the session does), or the calling run itself (its directory, CLI, depth and tool policy).
 */
export function origin(scope: ToolScope, deps: ToolDeps): SpawnOrigin {
  const sessionId = scope.sessionId();
  const caller = callerRun(scope, deps);
  // The person the agent works for spends their budget on what it spawns.
  const person = caller ? paidBy(caller) : scope.turnBy?.()?.key;
  const requester: Requester = {
    kind: 'agent',
    chatKey: chatKey(scope.address),
    sessionId,
    runId: scope.runId,
    for: person,
  };
  const base = { address: scope.address, requester, requesterSessionId: sessionId };
  if (caller) return { ...base, cwd: caller.cwd, cli: caller.cli, depth: caller.depth, policy: caller.policy };
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

/**
 * The runs the caller may see and stop: a main session's, every run of its chat; a run's, the
 * runs it started and theirs (never its siblings or its parent: its secret is for itself).
 */
export function runsOfChat(scope: ToolScope, deps: ToolDeps): SubagentRunRecord[] {
  const runs = deps.subagents.registry.forChat(chatKey(scope.address));
  const { runId } = scope;
  if (!runId) return runs;
  const byId = new Map(runs.map((run) => [run.runId, run]));
  return runs.filter((run) => startedBy(run, runId, byId));
}

/** Whether `ancestor` started this run, or a run that did. */
function startedBy(run: SubagentRunRecord, ancestor: string, byId: ReadonlyMap<string, SubagentRunRecord>): boolean {
  const seen = new Set<string>();
  for (let parent = spawnerOf(run); parent && !seen.has(parent); parent = spawnerOf(byId.get(parent))) {
    if (parent === ancestor) return true;
    seen.add(parent);
  }
  return false;
}

function spawnerOf(run: SubagentRunRecord | undefined): string | undefined {
  return run?.requester.kind === 'agent' ? run.requester.runId : undefined;
}

/** A run of the caller's chat, by id or #number, or the error the agent reads. */
export async function withRun(
  scope: ToolScope,
  deps: ToolDeps,
  id: string,
  use: (run: SubagentRunRecord) => ToolResult | Promise<ToolResult>,
): Promise<ToolResult> {
  const run = findRun(runsOfChat(scope, deps), id);
  if (!run) return error(`No run "${id}" ${scope.runId ? 'of yours' : 'in this chat'}. list_subagents shows them.`);
  return use(run);
}
