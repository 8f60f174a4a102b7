// Original file: proto/jsonl_bridge/v1/chat.proto

import type { TurnStatus as _jsonl_bridge_v1_TurnStatus, TurnStatus__Output as _jsonl_bridge_v1_TurnStatus__Output } from '../../jsonl_bridge/v1/TurnStatus.ts';
import type { Long } from '@grpc/proto-loader';

export interface TurnEnded {
  turnId?: string;
  status?: _jsonl_bridge_v1_TurnStatus;
  text?: string;
  error?: string;
  costUsd?: number | string;
  durationMs?: number | string | Long;
  sessionId?: string;
}

export interface TurnEnded__Output {
  turnId: string;
  status: _jsonl_bridge_v1_TurnStatus__Output;
  text: string;
  error: string;
  costUsd: number;
  durationMs: number;
  sessionId: string;
}
