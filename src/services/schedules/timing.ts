import { Cron } from 'croner';
import { ConfigError } from '../../kernel/errors/config-error.ts';

/** When a schedule fires: on a cron pattern, every so long, or once. */
export type Timing = { kind: 'cron'; pattern: string } | { kind: 'every'; ms: number } | { kind: 'once'; at: number };

/** The time zone schedules are read in (BRIDGE_TZ, or the machine's): `daily 09:00` is 09:00 there. */
export function scheduleTimeZone(raw: string | undefined): string {
  const zone = raw?.trim() || Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new ConfigError(`BRIDGE_TZ: expected an IANA time zone, like Europe/Berlin or UTC, got "${zone}"`);
  }
  return zone;
}

/** Schedules closer together than this would flood a chat. */
export const MIN_GAP_MS = 10_000;

export class TimingError extends Error {
  override name = 'TimingError';
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+)\s*(s|m|h|d)$/i;
const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/**
 * `/every`'s `<when>`: `30m`, `2h`, `daily 09:00`, `weekdays 18:30`, or a cron expression (5
 * fields, or 6 with seconds); the words it took and what is left of the text (the prompt).
 */
export function parseEvery(text: string, timeZone: string): { timing: Timing; rest: string } {
  const words = text.trim().split(/\s+/);
  const first = words[0] ?? '';
  const duration = DURATION.exec(first);
  if (duration) {
    const ms = Number(duration[1]) * UNITS[duration[2]!.toLowerCase()]!;
    if (ms < MIN_GAP_MS) throw new TimingError(`"${first}" is too often: a schedule fires at most every ${MIN_GAP_MS / 1000} s.`);
    return { timing: { kind: 'every', ms }, rest: words.slice(1).join(' ') };
  }
  const day = /^(daily|weekdays)$/i.exec(first);
  if (day) {
    const clock = CLOCK.exec(words[1] ?? '');
    if (!clock) throw new TimingError(`"${first}" needs a time: ${first.toLowerCase()} 09:00.`);
    const pattern = `${Number(clock[2])} ${Number(clock[1])} * * ${day[1]!.toLowerCase() === 'daily' ? '*' : '1-5'}`;
    return { timing: { kind: 'cron', pattern }, rest: words.slice(2).join(' ') };
  }
  // A cron expression: the longest run of leading words (6, then 5) that croner takes.
  for (const fields of [6, 5]) {
    const pattern = words.slice(0, fields).join(' ');
    if (words.length <= fields || !looksLikeCron(pattern)) continue;
    let job: Cron;
    try {
      job = new Cron(pattern, { timezone: timeZone, paused: true });
    } catch {
      continue;
    }
    const [a, b] = job.nextRuns(2);
    if (!a || !b) throw new TimingError(`"${pattern}" never fires again.`);
    if (b.getTime() - a.getTime() < MIN_GAP_MS) throw new TimingError(`"${pattern}" is too often: a schedule fires at most every ${MIN_GAP_MS / 1000} s.`);
    return { timing: { kind: 'cron', pattern }, rest: words.slice(fields).join(' ') };
  }
  throw new TimingError(`"${first}" is not a time: use 30m, 2h, daily 09:00, weekdays 18:30, or a cron expression like "0 9 * * 1-5".`);
}

/**
 * `/at`'s `<when>`: `in 20m`, `in 10s`, `14:30` (the next 14:30 in the time zone: tomorrow once
 * it has passed today), or an ISO time; and the prompt after it.
 */
export function parseAt(text: string, timeZone: string, now = Date.now()): { timing: Timing; rest: string } {
  const words = text.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (first.toLowerCase() === 'in') {
    const duration = DURATION.exec(words[1] ?? '');
    if (!duration) throw new TimingError(`"in" needs a duration: in 20m, in 2h, in 10s.`);
    const ms = Number(duration[1]) * UNITS[duration[2]!.toLowerCase()]!;
    return { timing: { kind: 'once', at: now + ms }, rest: words.slice(2).join(' ') };
  }
  const clock = CLOCK.exec(first);
  if (clock) {
    const next = new Cron(`${Number(clock[2])} ${Number(clock[1])} * * *`, { timezone: timeZone, paused: true }).nextRun(new Date(now));
    return { timing: { kind: 'once', at: next!.getTime() }, rest: words.slice(1).join(' ') };
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(first)) {
    const at = Date.parse(first);
    if (Number.isNaN(at)) throw new TimingError(`"${first}" is not a time.`);
    if (at <= now) throw new TimingError(`${first} has passed.`);
    return { timing: { kind: 'once', at }, rest: words.slice(1).join(' ') };
  }
  throw new TimingError(`"${first}" is not a time: use in 20m, 14:30, or an ISO time like 2026-12-01T09:00:00+01:00.`);
}

/** The first time the schedule fires after `after`; none when it never will again. */
export function nextFire(timing: Timing, after: number, timeZone: string): number | undefined {
  if (timing.kind === 'once') return timing.at > after ? timing.at : undefined;
  if (timing.kind === 'every') return after + timing.ms;
  return new Cron(timing.pattern, { timezone: timeZone, paused: true }).nextRun(new Date(after))?.getTime();
}

/** The timing as a person wrote it, more or less: `every 30m`, `at 14:30 on 1 Dec`, `0 9 * * 1-5`. */
export function describeTiming(timing: Timing, timeZone: string): string {
  if (timing.kind === 'every') return `every ${humanMs(timing.ms)}`;
  if (timing.kind === 'once') return `once, ${formatTime(timing.at, timeZone)}`;
  const daily = /^(\d+) (\d+) \* \* (\*|1-5)$/.exec(timing.pattern);
  if (daily) return `${daily[3] === '*' ? 'daily' : 'weekdays'} ${daily[2]!.padStart(2, '0')}:${daily[1]!.padStart(2, '0')}`;
  return `cron ${timing.pattern}`;
}

export function formatTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(ms);
}

function humanMs(ms: number): string {
  const unit = ['d', 'h', 'm'].find((name) => ms % UNITS[name]! === 0);
  return unit ? `${ms / UNITS[unit]!}${unit}` : `${ms / 1000}s`;
}

function looksLikeCron(pattern: string): boolean {
  return pattern.split(' ').every((field) => /^[\d*/,\-?LW#A-Za-z]+$/.test(field) && /[\d*?]/.test(field));
}
