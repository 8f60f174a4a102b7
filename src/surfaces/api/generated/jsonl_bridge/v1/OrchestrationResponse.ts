// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface OrchestrationResponse {
  orchestrationId?: string;
  number?: number;
}

export interface OrchestrationResponse__Output {
  orchestrationId: string;
  number: number;
}
