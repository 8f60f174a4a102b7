// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface Result {
  text?: string;
  isError?: boolean;
  costUsd?: number | string;
  turns?: number;
}

export interface Result__Output {
  text: string;
  isError: boolean;
  costUsd: number;
  turns: number;
}
