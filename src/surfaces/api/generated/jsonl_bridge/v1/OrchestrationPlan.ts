// Original file: proto/jsonl_bridge/v1/subagent.proto

import type {
  OrchestrationStep as _jsonl_bridge_v1_OrchestrationStep,
  OrchestrationStep__Output as _jsonl_bridge_v1_OrchestrationStep__Output,
} from '../../jsonl_bridge/v1/OrchestrationStep.ts';
import type {
  OrchestrationStrategy as _jsonl_bridge_v1_OrchestrationStrategy,
  OrchestrationStrategy__Output as _jsonl_bridge_v1_OrchestrationStrategy__Output,
} from '../../jsonl_bridge/v1/OrchestrationStrategy.ts';
import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';

export interface OrchestrationPlan {
  parentSessionId?: string;
  steps?: _jsonl_bridge_v1_OrchestrationStep[];
  strategy?: _jsonl_bridge_v1_OrchestrationStrategy;
  chat?: _jsonl_bridge_v1_ChatRef | null;
  name?: string;
}

export interface OrchestrationPlan__Output {
  parentSessionId: string;
  steps: _jsonl_bridge_v1_OrchestrationStep__Output[];
  strategy: _jsonl_bridge_v1_OrchestrationStrategy__Output;
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
  name: string;
}
