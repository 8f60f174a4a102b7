// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface Blocked {
  host?: string;
  why?: string;
}

export interface Blocked__Output {
  host: string;
  why: string;
}
