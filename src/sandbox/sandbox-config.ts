import { ConfigError } from '../errors/config-error.ts';
import { parseHostRule, type HostRule } from './host-rules.ts';

export const SANDBOX_SETTINGS = ['off', 'bwrap', 'auto'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

/** BRIDGE_SANDBOX and BRIDGE_SANDBOX_ALLOW as written; whether the walls go up is decided at start (see decideSandbox). */
export interface SandboxConfig {
  setting: SandboxSetting;
  /** Hosts every sandboxed CLI may reach besides its model API. */
  allow: HostRule[];
}

export function sandboxConfig(env: NodeJS.ProcessEnv): SandboxConfig {
  const raw = env.BRIDGE_SANDBOX?.trim().toLowerCase() || 'auto';
  if (!(SANDBOX_SETTINGS as readonly string[]).includes(raw))
    throw new ConfigError(
      `BRIDGE_SANDBOX: expected off, bwrap (every CLI in a bubblewrap sandbox, or no start) or auto (the sandbox where it can run), got "${env.BRIDGE_SANDBOX!.trim()}"`,
    );
  const allow = (env.BRIDGE_SANDBOX_ALLOW ?? '')
    .split(',')
    .filter((part) => part.trim())
    .map((part) => parseHostRule(part, 'BRIDGE_SANDBOX_ALLOW'));
  return { setting: raw as SandboxSetting, allow };
}
