import { oneOf } from '../../kernel/settings/variables.ts';
import { PERMISSION_MODES, type PermissionMode } from '../../kernel/policy/permission-mode.ts';
import { BUSY_MODES, type BusyMode } from '../../kernel/policy/busy-mode.ts';

/** The modes a chat is in until it chooses others. */
export interface DefaultModes {
  /** How main sessions treat tools that need permission, unless a chat chose otherwise (/permissions). */
  permissionMode: PermissionMode;
  /** What a message sent while a chat's agent works does, unless the chat chose otherwise (/busy). */
  busyMode: BusyMode;
}

export function defaultModes(env: NodeJS.ProcessEnv): DefaultModes {
  return { permissionMode: oneOf(env, 'BRIDGE_PERMISSION_MODE', PERMISSION_MODES, 'bypass'), busyMode: oneOf(env, 'BRIDGE_BUSY_MODE', BUSY_MODES, 'steer') };
}
