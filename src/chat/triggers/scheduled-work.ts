import { chatKey } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { Schedule } from '../../services/schedules/schedule.ts';
import { parseSpawnArgs } from '../../work/subagents/spawn-args.ts';
import { Triggered, type TriggeredParts } from './triggered.ts';

/**
 * What a schedule does when it fires: its prompt as a turn of the chat's session (queued
 * behind a person's, never steering it), or with --spawn a run with /spawn's options. One
 * that came due while the bridge was down says it is late.
 */
export function scheduledWork(parts: TriggeredParts): (schedule: Schedule, late: boolean) => Promise<'refused' | undefined> {
  const triggered = new Triggered(parts);
  return async (schedule, late) => {
    const from = `⏰ Schedule #${schedule.number}${late ? ' (late: it came due while the bridge was down)' : ''}`;
    // Nothing runs for someone no longer allowed: a person's schedule, or one the agent made in their turn. It is
    // paused (its chat is told once; the owner may delete it, or resume it once they are allowed again).
    const { by, chat } = schedule;
    const maker = by.kind === 'user' ? (by.key ? { id: by.id, key: by.key, name: by.name ?? by.id } : undefined) : by.for && { ...by.for, name: by.for.id };
    if (maker && !parts.bot.allowlist.isAllowed(chat, { id: maker.id, identity: maker.key })) {
      const whose = by.kind === 'user' ? `${maker.name}, who made it,` : `${maker.name}, in whose turn the agent made it,`;
      await triggered.tell(chat, `${from} did not run: ${whose} is no longer allowed here. It is paused: /schedules delete ${schedule.number} removes it.`);
      return 'refused';
    }
    if (schedule.spawn === undefined) {
      // A person's schedule spends their budget too; one the agent made, only its chat's.
      const payer = by.kind === 'user' ? { key: by.key ?? `${chat.transport}:${by.id}`, ...(by.name ? { name: by.name } : {}) } : undefined;
      await triggered.turn(chat, { from, text: schedule.prompt, payer });
      return undefined;
    }
    const requester =
      by.kind === 'agent'
        ? ({ kind: 'agent', chatKey: chatKey(chat) } as const)
        : { kind: 'user' as const, userId: by.id, ...(by.name ? { name: by.name } : {}) };
    await triggered.run(chat, from, parseSpawnArgs(schedule.spawn), { requester }, plain(`${from}:`));
    return undefined;
  };
}
