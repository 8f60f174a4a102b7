// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface RevokeAutoApproveRequest {
  subagentId?: string;
}

export interface RevokeAutoApproveRequest__Output {
  subagentId: string;
}
