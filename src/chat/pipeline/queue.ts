import { personOf, type IncomingMessage } from '../../kernel/ports/chat.ts';
import type { Person } from '../../engine/usage/usage-ledger.ts';
import { promptWithFiles } from '../../engine/files/prompt.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { step, type MessageContext, type Step } from './step.ts';
import { keepForRestart, type DrainParts } from './drain.ts';

export interface QueueParts extends DrainParts {
  /** BRIDGE_MAX_QUEUED_MESSAGES: how many may wait behind a running turn. */
  limit: number;
  /** The message as a turn of the chat's main session, behind the one running. */
  startTurn: (chat: ChatSession, message: Pick<IncomingMessage, 'text' | 'messageId'> & { sender?: string; payer?: Person }, by: string) => Promise<void>;
}

/**
 * The last step: the message is a turn of the chat's session, with the files that wait for it,
 * queued behind the running one, unless the queue is full.
 */
export function queue(parts: QueueParts): Step<MessageContext> {
  return step('queue', async ({ chat, message, reply }) => {
    if (chat.busy && chat.queued >= parts.limit) {
      await reply(
        plain(`⛔ ${parts.limit} messages are already waiting for the agent, so this one was not queued. Send it again once the current turn ends, or /stop.`),
      );
      return;
    }
    const files = [...(await parts.attachments.take(chat, message.user.id)), ...(message.files ?? [])];
    // The drain may have begun while the files were taken: the person is told, as in the drain step.
    if (parts.draining()) return keepForRestart(parts, chat, { ...message, files });
    const text = promptWithFiles(message.text, files, chat.record.workdir);
    await parts.startTurn(chat, { ...message, text, sender: message.user.name, payer: personOf(chat.address, message.user) }, message.user.id);
  });
}
