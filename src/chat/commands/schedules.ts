import { scheduleLine, scheduleList, scheduledText } from '../../work/presentation/schedules.ts';
import { plain, type RichText } from '../../kernel/rich/index.ts';
import { userKey } from '../../kernel/ports/chat.ts';
import type { Schedule } from '../../services/schedules/schedule.ts';
import { parseAt, parseEvery, TimingError, type Timing } from '../../services/schedules/timing.ts';
import { parseSpawnArgs, SpawnArgsError } from '../../work/subagents/spawn-args.ts';
import { messageKey, parsed, UsageError, type Command, type CommandContext } from '../dispatch/command.ts';

/**
 * What follows the time: a prompt for the chat's session, or `--spawn` and /spawn's options and
 * task, for a run. The run's options are checked now, not when it fires.
 */
function what(rest: string, clis: ReadonlySet<string>): { prompt: string; spawn?: string } {
  const spawn = /^--spawn(?:\s+|$)(.*)$/s.exec(rest.trim());
  if (!spawn) {
    if (!rest.trim()) throw new UsageError('Say what to do after the time.');
    return { prompt: rest.trim() };
  }
  const args = parsed(SpawnArgsError, () => parseSpawnArgs(spawn[1]!));
  if (args.cli && !clis.has(args.cli)) throw new UsageError(`There is no CLI "${args.cli}": ${[...clis].join(', ')}.`);
  return { prompt: args.task, spawn: spawn[1]! };
}

async function make(ctx: CommandContext, parse: (text: string, timeZone: string) => { timing: Timing; rest: string }): Promise<RichText> {
  const { scheduler } = ctx.services;
  const asked = parsed(TimingError, () => parse(ctx.args, scheduler.timeZone));
  const { user } = ctx.message;
  const schedule = await scheduler.add({
    chat: ctx.chat.address,
    fromMessage: messageKey(ctx.message),
    timing: asked.timing,
    by: { kind: 'user', id: user.id, key: userKey(ctx.chat.address.transport, user), ...(user.name ? { name: user.name } : {}) },
    ...what(asked.rest, new Set(ctx.bot.config.adapters.keys())),
  });
  return scheduledText(schedule, scheduler.timeZone);
}

/** Its schedule keeps the message that asked for it: cut short before it was made, /every or /at is carried out again. */
const scheduleOf: Command['effectOf'] = (key, _args, { services }) => ({ kind: services.scheduler.madeFrom(key) ? 'done' : 'none' });

/** /every <when> <prompt>: a schedule that repeats. */
export const every: Command = {
  name: 'every',
  description: 'Run a prompt on a schedule: 30m, 2h, daily 09:00, weekdays 18:30 or a cron expression (--spawn: as a subagent)',
  usage: '/every <30m | 2h | daily HH:MM | weekdays HH:MM | cron> [--spawn [/spawn options]] <prompt>',
  // A chat's schedules are its admins' to make.
  access: 'admin',
  effectOf: scheduleOf,
  run: (ctx) => make(ctx, parseEvery),
};

/** /at <when> <prompt>: a schedule that fires once. */
export const at: Command = {
  name: 'at',
  description: 'Run a prompt once, later: in 20m, 14:30 or an ISO time (--spawn: as a subagent)',
  usage: '/at <in 20m | HH:MM | ISO time> [--spawn [/spawn options]] <prompt>',
  // A chat's schedules are its admins' to make.
  access: 'admin',
  effectOf: scheduleOf,
  run: (ctx) => make(ctx, (text, timeZone) => parseAt(text, timeZone)),
};

/** /schedules [list | pause | resume | delete <#>]: this chat's schedules. */
export const schedules: Command = {
  name: 'schedules',
  description: "List this chat's schedules, or pause, resume or delete one",
  usage: '/schedules [list | pause <#> | resume <#> | delete <#>]',
  // Anyone may list them; the chat's admins pause, resume and delete them.
  access: (args) => (/^\s*(pause|resume|delete)\b/i.test(args) ? 'admin' : 'member'),
  async run(ctx) {
    const { scheduler } = ctx.services;
    const [sub = 'list', ref, ...extra] = ctx.args.trim().split(/\s+/).filter(Boolean);
    const action = sub.toLowerCase();
    if (action === 'list') return scheduleList(scheduler.forChat(ctx.chat.address), scheduler.timeZone);
    if (!['pause', 'resume', 'delete'].includes(action)) throw new UsageError(`"${sub}" is not list, pause, resume or delete.`);
    if (!ref || extra.length) throw new UsageError(`/schedules ${action} takes one schedule's #number.`);
    const schedule: Schedule | undefined = scheduler.find(ctx.chat.address, ref);
    if (!schedule) throw new UsageError(`This chat has no schedule ${ref.startsWith('#') ? ref : `#${ref}`}. /schedules lists them.`);
    if (action === 'delete') {
      await scheduler.delete(schedule);
      return plain(`🗑 Deleted ${scheduleLine(schedule, scheduler.timeZone)}.`);
    }
    if (action === 'pause') {
      await scheduler.pause(schedule);
      return plain(`⏸ Paused: ${scheduleLine({ ...schedule, paused: true }, scheduler.timeZone)}.`);
    }
    return plain(`▶️ Resumed: ${scheduleLine(await scheduler.resume(schedule), scheduler.timeZone)}.`);
  },
  async status(chat, { services }) {
    const count = services.scheduler.forChat(chat.address).filter((s) => !s.paused && s.nextAt !== undefined).length;
    return count ? [['Schedules', `${count} active (/schedules)`]] : [];
  },
};
