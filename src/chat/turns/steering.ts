import { steered } from '../../services/telemetry/metrics-sessions.ts';
import { basename } from 'node:path';
import { nanoid } from 'nanoid';
import { promptWithFiles } from '../../engine/files/prompt.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey, personOf, userKey, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import type { Person } from '../../engine/usage/usage-ledger.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { Attachments, Prompt } from '../session/attachments.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { Transcripts } from '../../work/transcripts/transcripts.ts';

export interface SteeringOptions {
  out: Outbound;
  attachments: Attachments;
  /** The message as the chat's next turn (a steer the finishing turn no longer took). */
  startTurn: (chat: ChatSession, message: Pick<IncomingMessage, 'text' | 'messageId'> & { sender?: string; payer?: Person }, by: string) => Promise<void>;
  /** The chats' transcripts: a message steered into a turn is part of it. */
  transcripts?: Transcripts;
  log: Log;
}

/** How long a message waits for a CLI just started to show whether it takes messages while it works. */
const SHOWN_WITHIN_MS = 3000;

/**
 * What a message does to a chat whose agent is at work, by the chat's busy mode (/busy):
 * `steer` puts it into the running turn where the CLI takes one while it works, `interrupt`
 * ends the turn through the CLI's interrupt so the message runs next, `queue` leaves it for
 * the next turn in order.
 */
export class Steering {
  /** Chats told once that their CLI cannot take a message while it works. */
  private readonly toldCannotSteer = new Set<string>();

  constructor(private readonly options: SteeringOptions) {}

  /** True when the message went into the running turn (or became the next turn itself); false: it queues. */
  async take(chat: ChatSession, prompt: Prompt): Promise<boolean> {
    if (!chat.busy) return false;
    if (chat.busyMode === 'steer') return this.steer(chat, prompt);
    if (chat.busyMode === 'interrupt' && chat.current) {
      // Its turn ends through the CLI's interrupt; this message is the next turn.
      chat.current.spans?.note('interrupted');
      void chat.stop(`interrupted by ${prompt.user.name ?? prompt.user.id}'s message`, { keepQueued: true, why: 'message' });
    }
    return false;
  }

  /**
   * Only whoever started the turn steers it (in a group, others' messages queue). Which turn
   * it goes into is decided as it is written, with nothing awaited between: a turn that ended
   * meanwhile (or one of someone else that began) takes none, and the message is the next turn.
   */
  private async steer(chat: ChatSession, prompt: Prompt): Promise<boolean> {
    const { out, attachments, log } = this.options;
    if (chat.current?.by !== prompt.user.id) return false;
    if (!chat.agent.steerable) {
      // Said once a chat.
      const key = chatKey(chat.address);
      if (!this.toldCannotSteer.has(key)) {
        this.toldCannotSteer.add(key);
        await out
          .send(chat.address, plain(`ℹ️ ${chat.record.cli} cannot take a message while it works, so messages sent meanwhile wait for the next turn.`), {
            replyTo: prompt.messageId,
          })
          .catch(() => {});
      }
      return false;
    }
    const files = [...(await attachments.take(chat, prompt.user.id)), ...(prompt.files ?? [])];
    const text = promptWithFiles(prompt.text, files, chat.record.workdir);
    // A CLI just started may not have shown yet whether it names messages back: its first lines come within moments.
    for (const until = Date.now() + SHOWN_WITHIN_MS; chat.agent.namesMessages === undefined && chat.busy && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const current = chat.current;
    const id = nanoid(10);
    if (current?.by !== prompt.user.id || !chat.agent.steer(text, id)) {
      await this.options.startTurn(chat, { ...prompt, text, sender: prompt.user.name, payer: personOf(chat.address, prompt.user) }, prompt.user.id);
      return true;
    }
    // Should the CLI take it as a turn of its own (it came after its result), that turn answers it.
    current.steers.set(id, { text, by: prompt.user.id, messageId: prompt.messageId });
    // On disk before the transport lets the message go: a kill now still tells the resumed agent.
    await chat.messages.noteSteered(current.id, text, prompt.messageId);
    this.options.transcripts?.record(chatKey(chat.address), {
      turn: current.id,
      at: Date.now(),
      kind: 'steer',
      text,
      by: userKey(chat.address.transport, prompt.user),
      ...(prompt.user.name ? { sender: prompt.user.name } : {}),
    });
    current.spans?.note('steered');
    current.presenter.showAdded(prompt.text || files.map((file) => basename(file.path)).join(', '));
    if (prompt.messageId !== undefined) {
      void out.react?.({ ...chat.address, messageId: prompt.messageId }, '👀').catch((error: Error) => log.debug(`a reaction failed: ${error.message}`));
    }
    steered(chat.record.cli);
    log.info({ chat: chatKey(chat.address), turn: current.id }, 'a message steered the running turn');
    return true;
  }
}
