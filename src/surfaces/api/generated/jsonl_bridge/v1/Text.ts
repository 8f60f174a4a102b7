// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface Text {
  text?: string;
}

export interface Text__Output {
  text: string;
}
