// Original file: proto/jsonl_bridge/v1/subagent.proto

export const Delivery = {
  DELIVERY_UNSPECIFIED: 'DELIVERY_UNSPECIFIED',
  DELIVERY_LIVE: 'DELIVERY_LIVE',
  DELIVERY_NEXT_TURN: 'DELIVERY_NEXT_TURN',
  DELIVERY_WORKER: 'DELIVERY_WORKER',
} as const;

export type Delivery = 'DELIVERY_UNSPECIFIED' | 0 | 'DELIVERY_LIVE' | 1 | 'DELIVERY_NEXT_TURN' | 2 | 'DELIVERY_WORKER' | 3;

export type Delivery__Output = (typeof Delivery)[keyof typeof Delivery];
