// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface SubagentInput {
  subagentId?: string;
  text?: string;
}

export interface SubagentInput__Output {
  subagentId: string;
  text: string;
}
