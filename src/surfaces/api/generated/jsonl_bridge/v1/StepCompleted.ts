// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface StepCompleted {
  stepId?: string;
  subagentId?: string;
  result?: string;
}

export interface StepCompleted__Output {
  stepId: string;
  subagentId: string;
  result: string;
}
