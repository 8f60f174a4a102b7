// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { Started as _jsonl_bridge_v1_Started, Started__Output as _jsonl_bridge_v1_Started__Output } from '../../jsonl_bridge/v1/Started.ts';
import type { Text as _jsonl_bridge_v1_Text, Text__Output as _jsonl_bridge_v1_Text__Output } from '../../jsonl_bridge/v1/Text.ts';
import type { ToolStart as _jsonl_bridge_v1_ToolStart, ToolStart__Output as _jsonl_bridge_v1_ToolStart__Output } from '../../jsonl_bridge/v1/ToolStart.ts';
import type { ToolEnd as _jsonl_bridge_v1_ToolEnd, ToolEnd__Output as _jsonl_bridge_v1_ToolEnd__Output } from '../../jsonl_bridge/v1/ToolEnd.ts';
import type { Result as _jsonl_bridge_v1_Result, Result__Output as _jsonl_bridge_v1_Result__Output } from '../../jsonl_bridge/v1/Result.ts';
import type { Error as _jsonl_bridge_v1_Error, Error__Output as _jsonl_bridge_v1_Error__Output } from '../../jsonl_bridge/v1/Error.ts';
import type { LogLine as _jsonl_bridge_v1_LogLine, LogLine__Output as _jsonl_bridge_v1_LogLine__Output } from '../../jsonl_bridge/v1/LogLine.ts';
import type { Exit as _jsonl_bridge_v1_Exit, Exit__Output as _jsonl_bridge_v1_Exit__Output } from '../../jsonl_bridge/v1/Exit.ts';
import type { RunEnded as _jsonl_bridge_v1_RunEnded, RunEnded__Output as _jsonl_bridge_v1_RunEnded__Output } from '../../jsonl_bridge/v1/RunEnded.ts';
import type { InputState as _jsonl_bridge_v1_InputState, InputState__Output as _jsonl_bridge_v1_InputState__Output } from '../../jsonl_bridge/v1/InputState.ts';
import type { Blocked as _jsonl_bridge_v1_Blocked, Blocked__Output as _jsonl_bridge_v1_Blocked__Output } from '../../jsonl_bridge/v1/Blocked.ts';
import type { Long } from '@grpc/proto-loader';

export interface AgentEvent {
  sequence?: number | string | Long;
  timestampMs?: number | string | Long;
  parentToolUseId?: string;
  started?: _jsonl_bridge_v1_Started | null;
  text?: _jsonl_bridge_v1_Text | null;
  toolStart?: _jsonl_bridge_v1_ToolStart | null;
  toolEnd?: _jsonl_bridge_v1_ToolEnd | null;
  result?: _jsonl_bridge_v1_Result | null;
  error?: _jsonl_bridge_v1_Error | null;
  log?: _jsonl_bridge_v1_LogLine | null;
  exit?: _jsonl_bridge_v1_Exit | null;
  ended?: _jsonl_bridge_v1_RunEnded | null;
  input?: _jsonl_bridge_v1_InputState | null;
  blocked?: _jsonl_bridge_v1_Blocked | null;
  event?: 'started' | 'text' | 'toolStart' | 'toolEnd' | 'result' | 'error' | 'log' | 'exit' | 'ended' | 'input' | 'blocked';
}

export interface AgentEvent__Output {
  sequence: number;
  timestampMs: number;
  parentToolUseId: string;
  started?: _jsonl_bridge_v1_Started__Output | null;
  text?: _jsonl_bridge_v1_Text__Output | null;
  toolStart?: _jsonl_bridge_v1_ToolStart__Output | null;
  toolEnd?: _jsonl_bridge_v1_ToolEnd__Output | null;
  result?: _jsonl_bridge_v1_Result__Output | null;
  error?: _jsonl_bridge_v1_Error__Output | null;
  log?: _jsonl_bridge_v1_LogLine__Output | null;
  exit?: _jsonl_bridge_v1_Exit__Output | null;
  ended?: _jsonl_bridge_v1_RunEnded__Output | null;
  input?: _jsonl_bridge_v1_InputState__Output | null;
  blocked?: _jsonl_bridge_v1_Blocked__Output | null;
  event?: 'started' | 'text' | 'toolStart' | 'toolEnd' | 'result' | 'error' | 'log' | 'exit' | 'ended' | 'input' | 'blocked';
}
