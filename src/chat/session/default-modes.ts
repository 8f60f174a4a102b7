import { ConfigError } from '../../kernel/errors/config-error.ts';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from '../../kernel/policy/permission-mode.ts';
import { BUSY_MODES, isBusyMode, type BusyMode } from '../../kernel/policy/busy-mode.ts';

/** The modes a chat is in until it chooses others. */
export interface DefaultModes {
  /** How main sessions treat tools that need permission, unless a chat chose otherwise (/permissions). */
  permissionMode: PermissionMode;
  /** What a message sent while a chat's agent works does, unless the chat chose otherwise (/busy). */
  busyMode: BusyMode;
}

/** BRIDGE_PERMISSION_MODE (by default bypass) and BRIDGE_BUSY_MODE (by default steer). */
export function defaultModes(env: NodeJS.ProcessEnv): DefaultModes {
  const permission = env.BRIDGE_PERMISSION_MODE?.trim().toLowerCase() || 'bypass';
  if (!isPermissionMode(permission))
    throw new ConfigError(`BRIDGE_PERMISSION_MODE: expected one of ${PERMISSION_MODES.join(', ')}, got "${env.BRIDGE_PERMISSION_MODE}"`);
  const busy = env.BRIDGE_BUSY_MODE?.trim().toLowerCase() || 'steer';
  if (!isBusyMode(busy)) throw new ConfigError(`BRIDGE_BUSY_MODE: expected one of ${BUSY_MODES.join(', ')}, got "${env.BRIDGE_BUSY_MODE}"`);
  return { permissionMode: permission, busyMode: busy };
}
