// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface SpawnSubagentResponse {
  subagentId?: string;
  sessionId?: string;
  number?: number;
  queuePosition?: number;
}

export interface SpawnSubagentResponse__Output {
  subagentId: string;
  sessionId: string;
  number: number;
  queuePosition: number;
}
