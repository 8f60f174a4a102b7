import type { Log } from '../log/logger.ts';
import { chatKey, type Outbound } from '../ports/transport.ts';
import { spawnedText, stopButton } from '../presentation/runs.ts';
import { plain } from '../rich/index.ts';
import type { Schedule } from '../schedules/schedule.ts';
import type { Spawner } from '../subagents/spawner.ts';
import type { Bridge } from './bridge.ts';
import type { ChatSessions } from './chat-sessions.ts';
import { parseSpawnArgs } from './commands/spawn-args.ts';

export interface ScheduledWorkParts {
  bridge: Pick<Bridge, 'inject' | 'isAllowed'>;
  spawner: Pick<Spawner, 'spawn'>;
  chats: Pick<ChatSessions, 'get'>;
  out: Outbound;
  log: Log;
}

/**
 * What a schedule does when it fires: its prompt as a turn of the chat's session (queued
 * behind a person's, never steering it), or with --spawn a run with /spawn's options. One
 * that came due while the bridge was down says it is late. Whatever refuses it (the budget, a
 * full queue, a bad option) is said in the chat.
 */
export function scheduledWork(parts: ScheduledWorkParts): (schedule: Schedule, late: boolean) => Promise<void> {
  return async (schedule, late) => {
    const from = `⏰ Schedule #${schedule.number}${late ? ' (late: it came due while the bridge was down)' : ''}`;
    const tell = (text: string) =>
      parts.out
        .send(schedule.chat, plain(text))
        .catch((error: Error) => parts.log.warn({ chat: schedule.chatKey }, `a schedule's notice failed: ${error.message}`));
    // Nothing runs for someone no longer allowed: the schedule stays (the owner may delete it), and says why it did nothing.
    const { by } = schedule;
    if (by.kind === 'user' && by.key && !parts.bridge.isAllowed(schedule.chat, { id: by.id, identity: by.key })) {
      await tell(`${from} did not run: ${by.name ?? by.id}, who made it, is no longer in BRIDGE_ALLOWED_USERS.`);
      return;
    }
    if (schedule.spawn === undefined) {
      const injected = await parts.bridge.inject(schedule.chat, { text: schedule.prompt, from });
      if (!injected.ok) await tell(`${from} did not run: ${injected.reason}`);
      return;
    }
    const { record } = parts.chats.get(schedule.chat);
    const requester =
      schedule.by.kind === 'agent'
        ? ({ kind: 'agent', chatKey: chatKey(schedule.chat) } as const)
        : { kind: 'user' as const, userId: schedule.by.id, ...(schedule.by.name ? { name: schedule.by.name } : {}) };
    const result = await parts.spawner
      .spawn(parseSpawnArgs(schedule.spawn), { address: schedule.chat, requester, cwd: record.workdir, cli: record.cli, depth: 0 })
      .catch((error: Error) => ({ ok: false as const, error: error.message }));
    if (!result.ok) {
      await tell(`${from} did not start its run: ${result.error}`);
      return;
    }
    await parts.out
      .send(schedule.chat, plain(`${from}:`), {})
      .then(() => parts.out.send(schedule.chat, spawnedText(result.run, result.queuePosition), { buttons: [[stopButton(result.run)]] }))
      .catch((error: Error) => parts.log.warn({ chat: schedule.chatKey }, `a schedule's notice failed: ${error.message}`));
  };
}
