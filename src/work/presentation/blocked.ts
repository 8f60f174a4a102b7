import { NO_SUCH_HOST, NOT_LISTED } from '../../engine/sandbox/egress-decision.ts';

/**
 * A host the walls did not let the agent reach, as a person reads it, with what would help:
 * a host not on the list is blocked (`/net allow` lets it through); a name that does not
 * resolve is no block at all, and allowing it changes nothing.
 */
export function blockedLine(host: string, why: string): string {
  if (why === NO_SUCH_HOST) return `❓ ${host}: no such host (the name does not resolve: check its spelling, or this machine's DNS)`;
  if (why === NOT_LISTED) return `🚫 blocked ${host} (not on the list: /net allow ${host})`;
  return `🚫 blocked ${host} (${why})`;
}
