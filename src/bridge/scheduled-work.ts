import { chatKey } from '../ports/transport.ts';
import { plain } from '../rich/index.ts';
import type { Schedule } from '../schedules/schedule.ts';
import { parseSpawnArgs } from './commands/spawn-args.ts';
import { Triggered, type TriggeredParts } from './triggered.ts';

/**
 * What a schedule does when it fires: its prompt as a turn of the chat's session (queued
 * behind a person's, never steering it), or with --spawn a run with /spawn's options. One
 * that came due while the bridge was down says it is late.
 */
export function scheduledWork(parts: TriggeredParts): (schedule: Schedule, late: boolean) => Promise<void> {
  const triggered = new Triggered(parts);
  return async (schedule, late) => {
    const from = `⏰ Schedule #${schedule.number}${late ? ' (late: it came due while the bridge was down)' : ''}`;
    // Nothing runs for someone no longer allowed: the schedule stays (the owner may delete it), and says why it did nothing.
    const { by, chat } = schedule;
    if (by.kind === 'user' && by.key && !parts.bridge.isAllowed(chat, { id: by.id, identity: by.key })) {
      await triggered.tell(chat, `${from} did not run: ${by.name ?? by.id}, who made it, is no longer in BRIDGE_ALLOWED_USERS.`);
      return;
    }
    if (schedule.spawn === undefined) {
      await triggered.turn(chat, from, schedule.prompt);
      return;
    }
    const requester =
      by.kind === 'agent'
        ? ({ kind: 'agent', chatKey: chatKey(chat) } as const)
        : { kind: 'user' as const, userId: by.id, ...(by.name ? { name: by.name } : {}) };
    await triggered.run(chat, from, parseSpawnArgs(schedule.spawn), { requester }, plain(`${from}:`));
  };
}
