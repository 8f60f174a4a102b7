// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface ToolStart {
  id?: string;
  name?: string;
  inputJson?: string;
}

export interface ToolStart__Output {
  id: string;
  name: string;
  inputJson: string;
}
