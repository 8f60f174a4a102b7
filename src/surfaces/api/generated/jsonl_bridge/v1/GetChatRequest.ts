// Original file: proto/jsonl_bridge/v1/chat.proto

import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';

export interface GetChatRequest {
  chat?: _jsonl_bridge_v1_ChatRef | null;
}

export interface GetChatRequest__Output {
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
}
