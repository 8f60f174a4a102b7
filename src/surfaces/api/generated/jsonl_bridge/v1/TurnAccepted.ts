// Original file: proto/jsonl_bridge/v1/chat.proto

import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';

export interface TurnAccepted {
  turnId?: string;
  queuePosition?: number;
  chat?: _jsonl_bridge_v1_ChatRef | null;
}

export interface TurnAccepted__Output {
  turnId: string;
  queuePosition: number;
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
}
