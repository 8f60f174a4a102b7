/**
 * How a chat's main session treats tools that need permission: `bypass` runs them, `ask`
 * asks the chat with Allow / Deny buttons, `safe` offers only tools that read. Ordered from
 * least to most trusting.
 */
export const PERMISSION_MODES = ['safe', 'ask', 'bypass'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

/** The one of two modes that allows less. */
export function stricter(a: PermissionMode, b: PermissionMode): PermissionMode {
  return PERMISSION_MODES.indexOf(a) <= PERMISSION_MODES.indexOf(b) ? a : b;
}

/** What the modes mean, as a chat is told. */
export const PERMISSION_MODE_MEANING: Record<PermissionMode, string> = {
  safe: 'only tools that read; anything else is refused',
  ask: 'tools that need permission are asked here with Allow / Deny buttons; no answer means deny',
  bypass: 'tools run without asking',
};
