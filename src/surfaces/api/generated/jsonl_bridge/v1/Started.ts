// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface Started {
  sessionId?: string;
  model?: string;
}

export interface Started__Output {
  sessionId: string;
  model: string;
}
