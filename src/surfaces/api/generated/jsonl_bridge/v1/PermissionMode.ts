// Original file: proto/jsonl_bridge/v1/chat.proto

export const PermissionMode = {
  PERMISSION_MODE_UNSPECIFIED: 'PERMISSION_MODE_UNSPECIFIED',
  PERMISSION_MODE_BYPASS: 'PERMISSION_MODE_BYPASS',
  PERMISSION_MODE_ASK: 'PERMISSION_MODE_ASK',
  PERMISSION_MODE_SAFE: 'PERMISSION_MODE_SAFE',
} as const;

export type PermissionMode = 'PERMISSION_MODE_UNSPECIFIED' | 0 | 'PERMISSION_MODE_BYPASS' | 1 | 'PERMISSION_MODE_ASK' | 2 | 'PERMISSION_MODE_SAFE' | 3;

export type PermissionMode__Output = (typeof PermissionMode)[keyof typeof PermissionMode];
