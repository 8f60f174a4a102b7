// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface CancelSubagentRequest {
  subagentId?: string;
}

export interface CancelSubagentRequest__Output {
  subagentId: string;
}
