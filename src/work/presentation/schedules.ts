import type { Schedule } from '../../services/schedules/schedule.ts';
import { truncate } from './format/index.ts';
import { describeTiming, formatTime } from '../../services/schedules/timing.ts';
import { lines, plain, type RichText } from '../../kernel/rich/index.ts';

export function scheduleTitle(schedule: Pick<Schedule, 'number' | 'prompt'>): string {
  return `#${schedule.number} “${truncate(schedule.prompt.replace(/\s+/g, ' '), 61)}”`;
}

/** One line of /schedules: what, when, next, and as what it runs. */
export function scheduleLine(schedule: Schedule, timeZone: string): string {
  const when = describeTiming(schedule.timing, timeZone);
  const next = schedule.paused ? '⏸ paused' : schedule.nextAt !== undefined ? `next ${formatTime(schedule.nextAt, timeZone)}` : 'done';
  const by = schedule.by.kind === 'agent' ? 'by the agent' : `by ${schedule.by.name ?? schedule.by.id}`;
  return `${scheduleTitle(schedule)}: ${when} · ${next} · ${schedule.spawn !== undefined ? 'a run' : 'a turn'} · ${by}`;
}

export function scheduleList(schedules: readonly Schedule[], timeZone: string): RichText {
  if (!schedules.length) return plain('No schedules in this chat. /every 30m <prompt> or /at 14:30 <prompt> makes one.');
  return lines([
    `⏰ ${schedules.length} schedule${schedules.length === 1 ? '' : 's'} (times in ${timeZone}):`,
    ...schedules.map((s) => scheduleLine(s, timeZone)),
    '/schedules pause|resume|delete <#>',
  ]);
}

export function scheduledText(schedule: Schedule, timeZone: string): RichText {
  return plain(`⏰ Scheduled ${scheduleLine(schedule, timeZone)}.`);
}
