// Original file: proto/jsonl_bridge/v1/chat.proto

import type {
  TurnAccepted as _jsonl_bridge_v1_TurnAccepted,
  TurnAccepted__Output as _jsonl_bridge_v1_TurnAccepted__Output,
} from '../../jsonl_bridge/v1/TurnAccepted.ts';
import type { AgentEvent as _jsonl_bridge_v1_AgentEvent, AgentEvent__Output as _jsonl_bridge_v1_AgentEvent__Output } from '../../jsonl_bridge/v1/AgentEvent.ts';
import type { TurnEnded as _jsonl_bridge_v1_TurnEnded, TurnEnded__Output as _jsonl_bridge_v1_TurnEnded__Output } from '../../jsonl_bridge/v1/TurnEnded.ts';

export interface ChatTurnEvent {
  accepted?: _jsonl_bridge_v1_TurnAccepted | null;
  agent?: _jsonl_bridge_v1_AgentEvent | null;
  ended?: _jsonl_bridge_v1_TurnEnded | null;
  event?: 'accepted' | 'agent' | 'ended';
}

export interface ChatTurnEvent__Output {
  accepted?: _jsonl_bridge_v1_TurnAccepted__Output | null;
  agent?: _jsonl_bridge_v1_AgentEvent__Output | null;
  ended?: _jsonl_bridge_v1_TurnEnded__Output | null;
  event?: 'accepted' | 'agent' | 'ended';
}
