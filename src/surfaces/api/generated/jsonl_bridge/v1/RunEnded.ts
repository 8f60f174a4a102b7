// Original file: proto/jsonl_bridge/v1/subagent.proto

import type {
  SubagentInfo as _jsonl_bridge_v1_SubagentInfo,
  SubagentInfo__Output as _jsonl_bridge_v1_SubagentInfo__Output,
} from '../../jsonl_bridge/v1/SubagentInfo.ts';

export interface RunEnded {
  run?: _jsonl_bridge_v1_SubagentInfo | null;
}

export interface RunEnded__Output {
  run: _jsonl_bridge_v1_SubagentInfo__Output | null;
}
