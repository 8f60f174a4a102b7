// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface Exit {
  code?: number;
  signal?: string;
}

export interface Exit__Output {
  code: number;
  signal: string;
}
