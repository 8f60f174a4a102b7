import type { SubagentSettings } from '../../kernel/settings/bridge-manifest.ts';
import { chatKey, isNoChat, type ChatRef } from '../../kernel/ports/chat.ts';
import { pendingDelivery, type Delivery } from './delivery.ts';
import type { SubagentRunRecord } from './record.ts';

/**
 * A run as the Spawner resolved it: every default applied, every check passed but the limits.
 * Its fields are the record's, as documented there, but for where it goes and whether it wants
 * a worktree.
 */
export type SpawnRequest = Pick<
  SubagentRunRecord,
  | 'requester'
  | 'task'
  | 'cli'
  | 'cwd'
  | 'depth'
  | 'timeoutSeconds'
  | 'context'
  | 'label'
  | 'model'
  | 'agent'
  | 'requesterSessionId'
  | 'policy'
  | 'chatMode'
  | 'maxTurns'
  | 'budget'
  | 'agentPrompt'
  | 'agents'
  | 'mcpServers'
  | 'trusted'
  | 'orchestration'
  | 'netAllow'
  | 'fromMessage'
> & {
  address: ChatRef;
  /** Run in a fresh git worktree on its own branch (the record's `isolate`). */
  worktree?: boolean;
};

/** Why a spawn was refused, for callers that answer with codes (the API): the request was wrong, or the bridge cannot take it now. */
export type Refusal = 'invalid' | 'limit' | 'unavailable';

export type SpawnResult = { ok: true; run: SubagentRunRecord; queuePosition: number } | { ok: false; error: string; refusal?: Refusal };

/**
 * Who hears of the run's end: the chat, and the main agent that spawned it (manifest.json
 * `announceTo`). A step of an orchestration is reported in the orchestration's own messages.
 */
export function deliveryFor(request: SpawnRequest, announceTo: SubagentSettings['announceTo']): Delivery {
  if (request.orchestration || isNoChat(request.address)) return pendingDelivery(false, false);
  const byAgent = request.requester.kind === 'agent';
  return pendingDelivery(byAgent && announceTo !== 'chat', !(byAgent && announceTo === 'agent'));
}

/**
 * The record a spawn request becomes. A run with room starts at once, saved as running in its
 * first write: a crash before its CLI starts leaves the same record a crash after a queued
 * run's start would.
 */
export function runRecordFor(
  request: SpawnRequest,
  made: { runId: string; number: number; logFile: string; startsNow: boolean; at: number; announceTo: SubagentSettings['announceTo'] },
): SubagentRunRecord {
  return {
    runId: made.runId,
    number: made.number,
    chat: request.address,
    requesterKey: chatKey(request.address),
    requesterSessionId: request.requesterSessionId,
    requester: request.requester,
    cli: request.cli,
    model: request.model,
    agent: request.agent,
    task: request.task,
    context: request.context,
    label: request.label,
    policy: request.policy,
    chatMode: request.chatMode,
    maxTurns: request.maxTurns,
    budget: request.budget,
    agentPrompt: request.agentPrompt,
    agents: request.agents,
    mcpServers: request.mcpServers,
    isolate: request.worktree,
    trusted: request.trusted,
    orchestration: request.orchestration,
    netAllow: request.netAllow,
    fromMessage: request.fromMessage,
    cwd: request.cwd,
    depth: request.depth,
    timeoutSeconds: request.timeoutSeconds,
    ...(made.startsNow ? { status: 'running', startedAt: made.at } : { status: 'queued' }),
    createdAt: made.at,
    logFile: made.logFile,
    delivery: deliveryFor(request, made.announceTo),
  };
}
