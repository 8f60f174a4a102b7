// Original file: proto/jsonl_bridge/v1/chat.proto

import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';
import type {
  PermissionMode as _jsonl_bridge_v1_PermissionMode,
  PermissionMode__Output as _jsonl_bridge_v1_PermissionMode__Output,
} from '../../jsonl_bridge/v1/PermissionMode.ts';
import type { BusyMode as _jsonl_bridge_v1_BusyMode, BusyMode__Output as _jsonl_bridge_v1_BusyMode__Output } from '../../jsonl_bridge/v1/BusyMode.ts';
import type { Long } from '@grpc/proto-loader';

export interface ChatInfo {
  chat?: _jsonl_bridge_v1_ChatRef | null;
  cli?: string;
  model?: string;
  sessionId?: string;
  workingDirectory?: string;
  permissionMode?: _jsonl_bridge_v1_PermissionMode;
  busyMode?: _jsonl_bridge_v1_BusyMode;
  turnRunning?: boolean;
  turnStartedAtMs?: number | string | Long;
  queued?: number;
}

export interface ChatInfo__Output {
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
  cli: string;
  model: string;
  sessionId: string;
  workingDirectory: string;
  permissionMode: _jsonl_bridge_v1_PermissionMode__Output;
  busyMode: _jsonl_bridge_v1_BusyMode__Output;
  turnRunning: boolean;
  turnStartedAtMs: number;
  queued: number;
}
