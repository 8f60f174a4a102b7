// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from '../../jsonl_bridge/v1/ChatRef.ts';

export interface SpawnSubagentRequest {
  parentSessionId?: string;
  prompt?: string;
  model?: string;
  workingDirectory?: string;
  allowedTools?: string[];
  maxTurns?: number;
  env?: { [key: string]: string };
  name?: string;
  autoApprovePermissions?: boolean;
  chat?: _jsonl_bridge_v1_ChatRef | null;
  cli?: string;
  agent?: string;
  timeoutSeconds?: number;
  worktree?: boolean;
  ask?: boolean;
  disallowedTools?: string[];
}

export interface SpawnSubagentRequest__Output {
  parentSessionId: string;
  prompt: string;
  model: string;
  workingDirectory: string;
  allowedTools: string[];
  maxTurns: number;
  env: { [key: string]: string };
  name: string;
  autoApprovePermissions: boolean;
  chat: _jsonl_bridge_v1_ChatRef__Output | null;
  cli: string;
  agent: string;
  timeoutSeconds: number;
  worktree: boolean;
  ask: boolean;
  disallowedTools: string[];
}
