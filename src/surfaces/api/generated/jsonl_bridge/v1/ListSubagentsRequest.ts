// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';

export interface ListSubagentsRequest {
  chat?: _jsonl_bridge_v1_ChatRef | null;
  activeOnly?: boolean;
}

export interface ListSubagentsRequest__Output {
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
  activeOnly: boolean;
}
