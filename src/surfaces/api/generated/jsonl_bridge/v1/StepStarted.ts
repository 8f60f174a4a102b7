// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface StepStarted {
  stepId?: string;
  subagentId?: string;
}

export interface StepStarted__Output {
  stepId: string;
  subagentId: string;
}
