import { z } from 'zod';
import { scheduleLine } from '../../presentation/schedules.ts';
import { parseAt, TimingError } from '../../../services/schedules/timing.ts';
import { defineTool, error, ok } from '../tool.ts';

/** How far ahead an agent may schedule, and how many of its schedules a chat may hold. */
export const AGENT_SCHEDULE_MAX_DAYS = 30;
export const AGENT_SCHEDULES_PER_CHAT = 20;

/** A follow-up the chat's agent sets for itself: its prompt comes back as a turn of this session, once, later. */
export const schedule = defineTool({
  name: 'schedule',
  description: `Schedule a follow-up for yourself in this chat: at the given time the prompt comes back to you as a new message of this conversation (for example "look at CI again" in 20 minutes). One-shot only, at most ${AGENT_SCHEDULE_MAX_DAYS} days ahead and ${AGENT_SCHEDULES_PER_CHAT} waiting per chat; people see and can delete it with /schedules.`,
  grant: 'main',
  input: z.strictObject({
    when: z.string().min(1).max(60).describe('"in 20m", "in 2h", "14:30" (the next one, in the bridge\'s time zone) or an ISO time.'),
    prompt: z.string().min(1).max(4000).describe('What to do then, written to yourself.'),
  }),
  async run({ when, prompt }, scope, deps) {
    const { scheduler } = deps;
    let at: number;
    try {
      const parsed = parseAt(when, scheduler.timeZone);
      if (parsed.timing.kind !== 'once') return error('Only one-shot schedules.');
      at = parsed.timing.at;
    } catch (caught) {
      if (caught instanceof TimingError) return error(`Not scheduled: ${caught.message}`);
      throw caught;
    }
    if (at - Date.now() > AGENT_SCHEDULE_MAX_DAYS * 86_400_000) return error(`Not scheduled: at most ${AGENT_SCHEDULE_MAX_DAYS} days ahead.`);
    const waiting = scheduler.forChat(scope.address).filter((s) => s.by.kind === 'agent' && s.nextAt !== undefined);
    if (waiting.length >= AGENT_SCHEDULES_PER_CHAT)
      return error(`Not scheduled: ${AGENT_SCHEDULES_PER_CHAT} of your follow-ups already wait in this chat (/schedules lists them).`);
    // A session that asks before its tools run asks for this too: the follow-up will act in the chat's name.
    if (scope.asker) {
      const decision = await deps.approvals.decide(scope.asker(), 'schedule', { when, prompt });
      if (decision.behavior === 'deny') return error(`Not scheduled: ${decision.message}`);
    }
    // The follow-up is the person's whose turn made it: it fires only while they are still allowed.
    const person = scope.turnBy?.();
    const by = { kind: 'agent' as const, for: person };
    const made = await scheduler.add({ chat: scope.address, prompt, timing: { kind: 'once', at }, by });
    return ok(`Scheduled ${scheduleLine(made, scheduler.timeZone)}. The prompt comes back to you as a message then.`);
  },
});
