// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface ToolEnd {
  id?: string;
  isError?: boolean;
  preview?: string;
}

export interface ToolEnd__Output {
  id: string;
  isError: boolean;
  preview: string;
}
