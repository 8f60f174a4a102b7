import type { SubagentSettings } from '../../kernel/settings/bridge-manifest.ts';
import { chatKey, isNoChat, type ChatRef } from '../../kernel/ports/chat.ts';
import { pendingDelivery, type Delivery } from './delivery.ts';
import type { RunSpec, SubagentRunRecord } from './record.ts';

/** A run as the Spawner resolved it: every default applied, every check passed but the limits, and where it goes. */
export type SpawnRequest = RunSpec & { address: ChatRef };

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
  const { address, ...fields } = request;
  return {
    runId: made.runId,
    number: made.number,
    chat: address,
    requesterKey: chatKey(address),
    ...fields,
    ...(made.startsNow ? { status: 'running', startedAt: made.at } : { status: 'queued' }),
    createdAt: made.at,
    logFile: made.logFile,
    delivery: deliveryFor(request, made.announceTo),
  };
}
