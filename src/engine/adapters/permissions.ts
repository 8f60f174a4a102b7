import type { PermissionMode } from '../../kernel/policy/permission-mode.ts';
import { UnsupportedOptionError } from '../../kernel/errors/unsupported-option-error.ts';
import { liveOnlyProtocols } from '../../kernel/protocols/index.ts';
import { canRunLive } from './live.ts';
import type { Adapter } from './load.ts';
import { wallsUp } from '../sandbox/walls.ts';

type PermissionAdapter = Pick<Adapter, 'name' | 'file' | 'permissions' | 'options' | 'protocol' | 'streamInput' | 'live'> & Partial<Pick<Adapter, 'walls'>>;

/**
 * Whether the CLI can ask the bridge before a tool runs: through a permission-prompt tool
 * reached over MCP, or, in a session `live` (kept between turns where the CLI can be), over its
 * own input (codex's approval requests; an ACP agent's, whose sessions are all live).
 */
export function canAsk(adapter: PermissionAdapter, context: { live?: boolean } = {}): boolean {
  if (liveOnlyProtocols.has(adapter.protocol)) return true;
  return (adapter.permissions.prompt !== undefined && adapter.options.mcp !== undefined) || (context.live === true && canRunLive(adapter));
}

/** What a session in `mode` runs with on this CLI: one that cannot ask runs read-only instead, never unattended. */
export function effectiveMode(adapter: PermissionAdapter, mode: PermissionMode, context: { live?: boolean } = {}): PermissionMode {
  return mode === 'ask' && !canAsk(adapter, context) ? 'safe' : mode;
}

/** Why the CLI cannot run in `mode`, or undefined when it can. */
export function unsupportedMode(adapter: PermissionAdapter, mode: PermissionMode): string | undefined {
  if (effectiveMode(adapter, mode) === 'safe' && !adapter.permissions.safe)
    return `${adapter.name} has no read-only mode (no permissions.safe in ${adapter.file})${mode === 'ask' ? ' and cannot ask the chat (no permissions.prompt)' : ''}`;
  return undefined;
}

/**
 * The permission flags of one turn: the control channel when the bridge answers there, the bridge's prompt tool when it asks, the read-only
 * mode when it must only read, the allowlist mode when it is limited to a list of tools
 * (so rules such as `Bash(git log:*)` bind), and otherwise the CLI's bypass.
 */
export function permissionTemplate(
  adapter: PermissionAdapter,
  turn: { permissions?: 'ask' | 'safe' | 'control'; allowedTools?: string[]; mcp?: unknown },
): string[] {
  if (turn.permissions === 'control') {
    if (!adapter.permissions.control) throw new UnsupportedOptionError(`${adapter.name} has no control channel (no permissions.control in ${adapter.file})`);
    return adapter.permissions.control;
  }
  if (turn.permissions === 'ask') {
    if (!adapter.permissions.prompt)
      throw new UnsupportedOptionError(
        `${adapter.name} cannot ask the bridge for permission (no permissions.prompt in ${adapter.file}), so its tool calls cannot be approved from the chat`,
      );
    if (!turn.mcp) throw new UnsupportedOptionError(`${adapter.name} needs the bridge's MCP endpoint to ask for permission`);
    return adapter.permissions.prompt;
  }
  if (turn.permissions === 'safe') {
    const unsupported = unsupportedMode(adapter, 'safe');
    if (unsupported) throw new UnsupportedOptionError(unsupported);
    return walled(adapter, 'safe') ?? adapter.permissions.safe!;
  }
  if (turn.allowedTools?.length && adapter.permissions.allowlist) return walled(adapter, 'allowlist') ?? adapter.permissions.allowlist;
  return walled(adapter, 'bypass') ?? adapter.permissions.bypass;
}

/** In the bridge's walls, the flags that replace a mode's own (its own sandbox off: it cannot nest in ours). */
function walled(adapter: PermissionAdapter, mode: 'bypass' | 'safe' | 'allowlist'): string[] | undefined {
  return wallsUp() ? adapter.walls?.permissions[mode] : undefined;
}
