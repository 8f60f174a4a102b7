import type { QuotaLimit } from '../../kernel/protocols/events.ts';
import { utcDay } from '../usage/usage-ledger.ts';

/** When a limit that said no time is tried again: a rate limit soon, a plan's usage or a key's credit in an hour. */
export const DEFAULT_RESET_MS: Record<QuotaLimit['kind'], number> = { rate: 5 * 60_000, usage: 60 * 60_000, credit: 60 * 60_000 };

/** When the CLI may be tried again: when it said, or the default for its kind. */
export function resetTime(limit: QuotaLimit, now = Date.now()): number {
  return limit.resetsAt ?? now + DEFAULT_RESET_MS[limit.kind];
}

/** "claude's usage limit is reached (resets 14:00 UTC)": what stopped the CLI, and when it resets if it said. */
export function limitReason(cli: string, limit: QuotaLimit, now = Date.now()): string {
  const what = { usage: `${cli}'s usage limit is reached`, rate: `${cli} is rate-limited`, credit: `${cli}'s API key has no credit left` }[limit.kind];
  return limit.resetsAt ? `${what} (resets ${clockTime(limit.resetsAt, now)})` : what;
}

/** The time a reset comes, as a chat reads it: "14:00 UTC", with the day when it is not today. */
export function clockTime(at: number, now = Date.now()): string {
  const time = `${new Date(at).toISOString().slice(11, 16)} UTC`;
  return utcDay(at) === utcDay(now) ? time : `${utcDay(at)} ${time}`;
}

/**
 * What a chat is told when a limit stopped its turn and no other CLI could take over: when it
 * can go on, which others are limited too, or how another could take over (`suggest`: a chain).
 */
export function waitNotice(cli: string, limit: QuotaLimit, also: { others: string[]; suggest?: string }, now = Date.now()): string {
  const when = limit.resetsAt
    ? `Send your message again after ${clockTime(limit.resetsAt, now)}, when it resets.`
    : limit.kind === 'credit'
      ? 'It goes on once the key has credit again.'
      : `It did not say when it resets: try again in ${Math.round(DEFAULT_RESET_MS[limit.kind] / 60_000)} minutes.`;
  const { others, suggest } = also;
  const more = others.length
    ? ` ${others.join(' and ')} ${others.length > 1 ? 'are' : 'is'} limited too.`
    : suggest
      ? ` /fallback ${suggest} lets another CLI take over meanwhile.`
      : '';
  return `${limitReason(cli, limit, now)}. ${when}${more}`;
}
