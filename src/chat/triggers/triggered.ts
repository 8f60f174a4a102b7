import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import { chatKey, type ChatRef, type RichText } from '../../kernel/ports/chat.ts';
import { spawnedText, stopButton } from '../../work/presentation/runs.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { SpawnIntent, SpawnOrigin, Spawner } from '../../work/subagents/spawner.ts';
import type { Bot } from '../bot.ts';

export interface TriggeredParts {
  bot: Pick<Bot, 'inject' | 'allowlist' | 'chats' | 'out'>;
  spawner: Pick<Spawner, 'spawn'>;
  log: Log;
}

export type TriggeredTurn = { ok: true; turnId: string } | { ok: false; reason: string; unreachable?: true };
export type TriggeredRun = { ok: true; runId: string } | { ok: false; reason: string };

/**
 * Work nobody typed in the chat (a schedule, a webhook), headed by where it comes from
 * (`⏰ Schedule #2`, `🪝 Webhook ci`): a turn of the chat's main session through
 * `Bot.inject` (queued behind a person's, never steering it), or a run, announced like a
 * /spawn. Whatever refuses it (the budget, a full queue, an option) is said in the chat.
 */
export class Triggered {
  constructor(private readonly parts: TriggeredParts) {}

  /** A turn headed by `message.from`, through `Bot.inject`. */
  async turn(chat: ChatRef, message: Parameters<Bot['inject']>[1]): Promise<TriggeredTurn> {
    const { from } = message;
    const injected = await this.parts.bot.inject(chat, message).catch((error: Error) => error);
    // The chat could not be written to: nobody there to tell.
    if (injected instanceof Error) return { ok: false, reason: `the chat cannot be reached (${injected.message})`, unreachable: true };
    if (injected.ok) return { ok: true, turnId: injected.turnId };
    await this.tell(chat, `${from} did not run: ${injected.reason}`);
    return { ok: false, reason: injected.reason };
  }

  /** A run from the chat's directory and CLI; `heading` is shown above its start. */
  async run(chat: ChatRef, from: string, intent: SpawnIntent, origin: Pick<SpawnOrigin, 'requester' | 'mode'>, heading: RichText): Promise<TriggeredRun> {
    const { record } = this.parts.bot.chats.get(chat);
    const result = await this.parts.spawner
      .spawn(intent, { address: chat, cwd: record.workdir, cli: record.cli, depth: 0, ...origin })
      .catch((error: Error) => ({ ok: false as const, error: error.message }));
    if (!result.ok) {
      await this.tell(chat, `${from} did not start its run: ${result.error}`);
      return { ok: false, reason: result.error };
    }
    const { out } = this.parts.bot;
    const notices = out.send(chat, heading).then(() => out.send(chat, spawnedText(result.run, result.queuePosition), { buttons: [[stopButton(result.run)]] }));
    await warnIfFails(notices, this.parts.log, `a notice of ${from}`, { chat: chatKey(chat) });
    return { ok: true, runId: result.run.runId };
  }

  tell(chat: ChatRef, text: string): Promise<unknown> {
    return warnIfFails(this.parts.bot.out.send(chat, plain(text)), this.parts.log, 'a notice', { chat: chatKey(chat) });
  }
}
