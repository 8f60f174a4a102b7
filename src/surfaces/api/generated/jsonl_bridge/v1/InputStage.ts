// Original file: proto/jsonl_bridge/v1/subagent.proto

export const InputStage = {
  INPUT_STAGE_UNSPECIFIED: 'INPUT_STAGE_UNSPECIFIED',
  INPUT_STAGE_QUEUED: 'INPUT_STAGE_QUEUED',
  INPUT_STAGE_STARTED: 'INPUT_STAGE_STARTED',
  INPUT_STAGE_COMPLETED: 'INPUT_STAGE_COMPLETED',
  INPUT_STAGE_CANCELLED: 'INPUT_STAGE_CANCELLED',
} as const;

export type InputStage =
  'INPUT_STAGE_UNSPECIFIED' | 0 | 'INPUT_STAGE_QUEUED' | 1 | 'INPUT_STAGE_STARTED' | 2 | 'INPUT_STAGE_COMPLETED' | 3 | 'INPUT_STAGE_CANCELLED' | 4;

export type InputStage__Output = (typeof InputStage)[keyof typeof InputStage];
