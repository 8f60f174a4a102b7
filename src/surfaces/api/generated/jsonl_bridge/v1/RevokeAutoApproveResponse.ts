// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface RevokeAutoApproveResponse {
  revoked?: boolean;
}

export interface RevokeAutoApproveResponse__Output {
  revoked: boolean;
}
