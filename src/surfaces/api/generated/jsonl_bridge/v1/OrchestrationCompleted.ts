// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface OrchestrationCompleted {
  summary?: string;
}

export interface OrchestrationCompleted__Output {
  summary: string;
}
