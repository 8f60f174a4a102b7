// Original file: proto/jsonl_bridge/v1/subagent.proto

import type { Long } from '@grpc/proto-loader';

export interface WatchSubagentRequest {
  subagentId?: string;
  fromSequence?: number | string | Long;
}

export interface WatchSubagentRequest__Output {
  subagentId: string;
  fromSequence: number;
}
