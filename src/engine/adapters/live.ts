import { liveDialects, type LiveDialect } from '../../kernel/protocols/index.ts';
import type { Adapter } from './load.ts';

type LiveAdapter = Pick<Adapter, 'protocol' | 'streamInput' | 'permissions' | 'live'>;

/**
 * How the CLI stays up between turns, if it can: over its own control channel (Claude Code's
 * `streamInput` with `permissions.control`) or as its `live` program (codex's app server).
 */
export function liveDialect(adapter: LiveAdapter): LiveDialect | undefined {
  if (adapter.live) return liveDialects[adapter.live.protocol];
  return adapter.streamInput && adapter.permissions.control ? liveDialects[adapter.protocol] : undefined;
}

/** Whether the CLI can stay up between turns: it takes messages while it works, and the bridge answers its permission requests. */
export function canRunLive(adapter: LiveAdapter): boolean {
  return liveDialect(adapter) !== undefined;
}

/** Whether a live session of the CLI has a plan mode the bridge can drive (/plan). */
export function canPlan(adapter: LiveAdapter): boolean {
  return liveDialect(adapter)?.plans ?? false;
}
