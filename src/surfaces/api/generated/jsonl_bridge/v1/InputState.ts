// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { InputStage as _jsonl_bridge_v1_InputStage, InputStage__Output as _jsonl_bridge_v1_InputStage__Output } from '../../jsonl_bridge/v1/InputStage.ts';

export interface InputState {
  messageId?: string;
  stage?: _jsonl_bridge_v1_InputStage;
}

export interface InputState__Output {
  messageId: string;
  stage: _jsonl_bridge_v1_InputStage__Output;
}
