// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface WatchOrchestrationRequest {
  orchestrationId?: string;
}

export interface WatchOrchestrationRequest__Output {
  orchestrationId: string;
}
