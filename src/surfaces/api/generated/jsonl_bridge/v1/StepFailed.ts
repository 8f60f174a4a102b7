// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface StepFailed {
  stepId?: string;
  subagentId?: string;
  error?: string;
  skipped?: boolean;
}

export interface StepFailed__Output {
  stepId: string;
  subagentId: string;
  error: string;
  skipped: boolean;
}
