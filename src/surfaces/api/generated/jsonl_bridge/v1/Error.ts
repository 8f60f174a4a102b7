// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface Error {
  message?: string;
}

export interface Error__Output {
  message: string;
}
