// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface LogLine {
  line?: string;
}

export interface LogLine__Output {
  line: string;
}
