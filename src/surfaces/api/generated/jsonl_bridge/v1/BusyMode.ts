// Original file: proto/jsonl_bridge/v1/chat.proto

export const BusyMode = {
  BUSY_MODE_UNSPECIFIED: 'BUSY_MODE_UNSPECIFIED',
  BUSY_MODE_STEER: 'BUSY_MODE_STEER',
  BUSY_MODE_QUEUE: 'BUSY_MODE_QUEUE',
  BUSY_MODE_INTERRUPT: 'BUSY_MODE_INTERRUPT',
} as const;

export type BusyMode = 'BUSY_MODE_UNSPECIFIED' | 0 | 'BUSY_MODE_STEER' | 1 | 'BUSY_MODE_QUEUE' | 2 | 'BUSY_MODE_INTERRUPT' | 3;

export type BusyMode__Output = (typeof BusyMode)[keyof typeof BusyMode];
