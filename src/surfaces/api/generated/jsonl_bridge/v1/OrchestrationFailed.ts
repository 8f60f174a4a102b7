// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface OrchestrationFailed {
  error?: string;
}

export interface OrchestrationFailed__Output {
  error: string;
}
