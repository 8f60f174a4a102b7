// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';
import type {
  SubagentStatus as _jsonl_bridge_v1_SubagentStatus,
  SubagentStatus__Output as _jsonl_bridge_v1_SubagentStatus__Output,
} from '../../jsonl_bridge/v1/SubagentStatus.ts';
import type { Long } from '@grpc/proto-loader';

export interface SubagentInfo {
  subagentId?: string;
  number?: number;
  chat?: _jsonl_bridge_v1_ChatRef | null;
  name?: string;
  cli?: string;
  model?: string;
  status?: _jsonl_bridge_v1_SubagentStatus;
  prompt?: string;
  sessionId?: string;
  result?: string;
  error?: string;
  createdAtMs?: number | string | Long;
  startedAtMs?: number | string | Long;
  endedAtMs?: number | string | Long;
  costUsd?: number | string;
  steps?: number;
  worker?: string;
  orchestrationId?: string;
}

export interface SubagentInfo__Output {
  subagentId: string;
  number: number;
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
  name: string;
  cli: string;
  model: string;
  status: _jsonl_bridge_v1_SubagentStatus__Output;
  prompt: string;
  sessionId: string;
  result: string;
  error: string;
  createdAtMs: number;
  startedAtMs: number;
  endedAtMs: number;
  costUsd: number;
  steps: number;
  worker: string;
  orchestrationId: string;
}
