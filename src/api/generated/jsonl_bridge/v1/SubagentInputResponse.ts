// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface SubagentInputResponse {
  pending?: number;
}

export interface SubagentInputResponse__Output {
  pending: number;
}
