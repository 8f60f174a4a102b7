// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { Delivery as _jsonl_bridge_v1_Delivery, Delivery__Output as _jsonl_bridge_v1_Delivery__Output } from '../../jsonl_bridge/v1/Delivery.ts';

export interface SubagentInputResponse {
  pending?: number;
  delivery?: _jsonl_bridge_v1_Delivery;
  messageId?: string;
}

export interface SubagentInputResponse__Output {
  pending: number;
  delivery: _jsonl_bridge_v1_Delivery__Output;
  messageId: string;
}
