import { ConfigError } from '../../kernel/errors/config-error.ts';
import { commaList } from '../../kernel/settings/variables.ts';
import { isIP } from 'node:net';
import { formatHostRule, parseHostRule, type HostRule } from './host-rules.ts';

export const SANDBOX_SETTINGS = ['off', 'bwrap', 'auto'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

/** BRIDGE_SANDBOX and BRIDGE_SANDBOX_ALLOW as written; whether the walls go up is decided at start (see decideSandbox). */
export interface SandboxConfig {
  setting: SandboxSetting;
  /** Hosts every sandboxed CLI may reach besides its model API. */
  allow: HostRule[];
  /** Internal addresses and ranges a sandboxed CLI may reach where a list allows the host (a chat's /net, an Allow in `ask`). */
  internal?: HostRule[];
}

export function sandboxConfig(env: NodeJS.ProcessEnv): SandboxConfig {
  const raw = env.BRIDGE_SANDBOX?.trim().toLowerCase() || 'auto';
  if (!(SANDBOX_SETTINGS as readonly string[]).includes(raw))
    throw new ConfigError(
      `BRIDGE_SANDBOX: expected off, bwrap (every CLI in a bubblewrap sandbox, or no start) or auto (the sandbox where it can run), got "${env.BRIDGE_SANDBOX!.trim()}"`,
    );
  const rules = (name: string) => commaList(env[name]).map((part) => parseHostRule(part, name));
  const internal = rules('BRIDGE_SANDBOX_INTERNAL');
  const named = internal.find((rule) => !isIP(rule.host));
  if (named)
    throw new ConfigError(
      `BRIDGE_SANDBOX_INTERNAL: expected addresses or ranges (10.0.0.5, 10.0.0.0/8, [fd00::]/8:443), got the name "${formatHostRule(named)}"`,
    );
  return { setting: raw as SandboxSetting, allow: rules('BRIDGE_SANDBOX_ALLOW'), internal };
}
