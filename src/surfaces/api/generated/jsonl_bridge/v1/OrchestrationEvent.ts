// Original file: proto/jsonl_bridge/v1/subagent.proto

import type {
  StepStarted as _jsonl_bridge_v1_StepStarted,
  StepStarted__Output as _jsonl_bridge_v1_StepStarted__Output,
} from '../../jsonl_bridge/v1/StepStarted.ts';
import type {
  StepCompleted as _jsonl_bridge_v1_StepCompleted,
  StepCompleted__Output as _jsonl_bridge_v1_StepCompleted__Output,
} from '../../jsonl_bridge/v1/StepCompleted.ts';
import type { StepFailed as _jsonl_bridge_v1_StepFailed, StepFailed__Output as _jsonl_bridge_v1_StepFailed__Output } from '../../jsonl_bridge/v1/StepFailed.ts';
import type {
  OrchestrationCompleted as _jsonl_bridge_v1_OrchestrationCompleted,
  OrchestrationCompleted__Output as _jsonl_bridge_v1_OrchestrationCompleted__Output,
} from '../../jsonl_bridge/v1/OrchestrationCompleted.ts';
import type {
  OrchestrationFailed as _jsonl_bridge_v1_OrchestrationFailed,
  OrchestrationFailed__Output as _jsonl_bridge_v1_OrchestrationFailed__Output,
} from '../../jsonl_bridge/v1/OrchestrationFailed.ts';

export interface OrchestrationEvent {
  orchestrationId?: string;
  stepStarted?: _jsonl_bridge_v1_StepStarted | null;
  stepCompleted?: _jsonl_bridge_v1_StepCompleted | null;
  stepFailed?: _jsonl_bridge_v1_StepFailed | null;
  completed?: _jsonl_bridge_v1_OrchestrationCompleted | null;
  failed?: _jsonl_bridge_v1_OrchestrationFailed | null;
  event?: 'stepStarted' | 'stepCompleted' | 'stepFailed' | 'completed' | 'failed';
}

export interface OrchestrationEvent__Output {
  orchestrationId: string;
  stepStarted?: _jsonl_bridge_v1_StepStarted__Output | null;
  stepCompleted?: _jsonl_bridge_v1_StepCompleted__Output | null;
  stepFailed?: _jsonl_bridge_v1_StepFailed__Output | null;
  completed?: _jsonl_bridge_v1_OrchestrationCompleted__Output | null;
  failed?: _jsonl_bridge_v1_OrchestrationFailed__Output | null;
  event?: 'stepStarted' | 'stepCompleted' | 'stepFailed' | 'completed' | 'failed';
}
