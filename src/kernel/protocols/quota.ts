import type { QuotaLimit } from './events.ts';

/**
 * What the CLIs print when their model API refuses them for a limit, as the real binaries word
 * it (test/fixtures/transcripts/*-usage-limit, *-rate-limit, *-no-credit): claude's "You've hit
 * your 5-hour limit · resets 6am (UTC)", codex's "You've hit your usage limit … try again at
 * 6:04 AM" and "Quota exceeded", and the APIs' own error bodies that droid passes on.
 */
const USAGE = /hit your (?:[\w-]+ )?(?:usage )?limit|usage limit (?:has been )?reached/i;
const CREDIT =
  /credit balance (?:is )?too low|quota exceeded|exceeded your current quota|insufficient[_ ]quota|insufficient[_ ]credits?|payment required|billing_error/i;
const RATE = /\b429\b|rate[_ ]limit|too many requests/i;

/** The limit a CLI's error text names, if it names one, and when it resets if it says so. */
export function limitOfText(text: string, now = Date.now()): QuotaLimit | undefined {
  const kind = USAGE.test(text) ? 'usage' : CREDIT.test(text) || /^402\b/.test(text) ? 'credit' : RATE.test(text) ? 'rate' : undefined;
  if (!kind) return undefined;
  const resetsAt = resetOfText(text, now);
  return resetsAt === undefined ? { kind } : { kind, resetsAt };
}

/** A limit of the kind an API error names (Anthropic's `error.type`, OpenAI's `code`), or of its status. */
export function limitOfApiError(status: number | undefined, type: string | undefined, message = ''): QuotaLimit | undefined {
  if (type === 'billing_error' || type === 'insufficient_quota' || status === 402) return { kind: 'credit' };
  if (type === 'usage_limit_reached') return { kind: 'usage' };
  const said = limitOfText(message);
  if (said) return said;
  if (type === 'rate_limit_error' || type === 'rate_limit' || type === 'rate_limit_exceeded' || status === 429) return { kind: 'rate' };
  return undefined;
}

/**
 * When the text says the limit resets: "resets 6:02am (UTC)", "try again at 6:04 AM", "try
 * again in 20s". A clock time is the next one to come, in UTC when it says so and otherwise in
 * the bridge's own zone (the CLI runs on the same machine).
 */
export function resetOfText(text: string, now = Date.now()): number | undefined {
  const seconds = /try again in (\d+(?:\.\d+)?)\s*(ms|s|m|h)\b/i.exec(text);
  if (seconds) {
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[seconds[2]!.toLowerCase() as 'ms' | 's' | 'm' | 'h'];
    return now + Math.ceil(Number(seconds[1]) * unit);
  }
  const clock =
    /(?:resets|try again at)\s+(?:[A-Z][a-z]{2} \d{1,2}(?:st|nd|rd|th)?,?\s+(?:\d{4}\s+)?)?(\d{1,2})(?::(\d{2}))?\s*([ap]m)\b(?:\s*\(([^)]+)\))?/i.exec(text);
  if (!clock) return undefined;
  const hour = (Number(clock[1]) % 12) + (clock[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const minute = Number(clock[2] ?? 0);
  return nextClockTime(hour, minute, now, clock[4]?.toUpperCase() === 'UTC');
}

/** The next time the clock shows hour:minute, in UTC or the local zone. */
function nextClockTime(hour: number, minute: number, now: number, utc: boolean): number {
  const at = new Date(now);
  if (utc) at.setUTCHours(hour, minute, 0, 0);
  else at.setHours(hour, minute, 0, 0);
  if (at.getTime() > now) return at.getTime();
  if (utc) at.setUTCDate(at.getUTCDate() + 1);
  else at.setDate(at.getDate() + 1);
  return at.getTime();
}
