import type { SubagentSettings } from '../config/bridge-manifest.ts';
import { isNoChat, type ChatRef } from '../ports/transport.ts';
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
  | 'agentPrompt'
  | 'agents'
  | 'mcpServers'
  | 'trusted'
  | 'orchestration'
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
