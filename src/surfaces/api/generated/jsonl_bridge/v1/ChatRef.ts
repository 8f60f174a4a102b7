// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { Long } from '@grpc/proto-loader';

export interface ChatRef {
  chatId?: number | string | Long;
  threadId?: number;
  chat?: string;
  thread?: string;
}

export interface ChatRef__Output {
  chatId: number;
  threadId: number;
  chat: string;
  thread: string;
}
