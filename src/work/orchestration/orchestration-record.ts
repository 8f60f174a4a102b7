import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { Delivery } from '../subagents/delivery.ts';
import type { Requester } from '../subagents/record.ts';
import type { SpawnOrigin } from '../subagents/spawner.ts';
import type { Plan } from './plan.ts';
import type { StepState } from './state.ts';

export type OrchestrationStatus = 'running' | 'completed' | 'failed' | 'stopped';

/** A step's state, plus the run that carries it out (and how many times it was started). */
export interface StepRecord extends StepState {
  runId?: string;
  runNumber?: number;
  attempts: number;
}

/** One orchestration: its plan and every step's state, persisted on every change. */
export interface OrchestrationRecord {
  id: string;
  /** #n within its chat. */
  number: number;
  chatKey: string;
  /** The chat it was made in, where its progress shows and its end is announced. */
  chat: ChatRef;
  requester: Requester;
  /** Where the steps start from, fixed when the plan is made: they carry its author's depth and limits. */
  origin: Pick<SpawnOrigin, 'cwd' | 'cli' | 'depth' | 'policy'>;
  plan: Plan;
  steps: Record<string, StepRecord>;
  status: OrchestrationStatus;
  createdAt: number;
  endedAt?: number;
  stoppedBy?: string;
  /** The message whose /orchestrate made it (`<chat>#<message id>`), saved in its first write: a replay after a restart finds it. */
  fromMessage?: string;
  /** The message edited in place with every step's state. */
  progressMessageId?: string;
  /** The picture of the graph beside it, where the transport shows pictures: its message, and a digest of what it shows. */
  picture?: { messageId: string; drawn: string };
  /** The announcement of its end, through the outbox; set when it ends. */
  delivery?: Delivery;
}

export function orchestrationName(orchestration: Pick<OrchestrationRecord, 'plan' | 'number'>): string {
  return orchestration.plan.name ?? `Orchestration #${orchestration.number}`;
}
