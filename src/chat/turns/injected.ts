import { nanoid } from 'nanoid';
import { chatKey, type ChatRef, type Outbound } from '../../kernel/ports/chat.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { bold, rich } from '../../kernel/rich/index.ts';
import type { OutsideSource } from '../../kernel/store/chat-store.ts';
import type { ChatSessions } from '../session/chat-sessions.ts';
import type { WorkBudget } from '../people/spending.ts';
import type { Person } from '../../engine/usage/usage-ledger.ts';
import type { Turns, TurnWatch } from './turns.ts';

export interface InjectParts {
  chats: Pick<ChatSessions, 'get'>;
  out: Outbound;
  budget: WorkBudget | undefined;
  /** BRIDGE_MAX_QUEUED_MESSAGES. */
  limit: number;
  /** A restart has begun: the message is kept for after it. */
  draining: () => boolean;
  turns: Pick<Turns, 'start'>;
}

export type Injected = { ok: true; turnId: string; position: number } | { ok: false; reason: string };

/**
 * A message into a chat's main session from something other than its people: a schedule,
 * a webhook, an API client. It never steers or interrupts: it queues behind the turn at work,
 * and the budget, the queue's limit and a drain apply as to anyone's message. The chat sees
 * it, headed by `from` (`⏰ Schedule #2`), and the answer replies to it. `watch` follows its
 * turn to the answer. `position`: 0, it starts now; n, n-th in the chat's queue. While the
 * bridge drains, the message is kept for after the restart: no turn id, and `watch` hears nothing.
 */
export async function inject(
  parts: InjectParts,
  address: ChatRef,
  message: { text: string; from: string; outside?: OutsideSource; payer?: Person; budgetUsd?: number },
  watch?: TurnWatch,
): Promise<Injected> {
  const chat = parts.chats.get(address);
  const refused = parts.budget?.refusal(chatKey(address), message.payer?.key);
  if (refused) return { ok: false, reason: refused };
  const { limit } = parts;
  if (chat.busy && chat.queued >= limit) return { ok: false, reason: `${limit} messages are already waiting for the agent in this chat.` };
  const shown = await parts.out.send(address, rich`${bold(message.from)}: ${truncate(message.text, 600)}`);
  if (parts.draining()) {
    await chat.messages.addPending({
      id: nanoid(10),
      text: message.text,
      by: '',
      messageId: shown.messageId,
      outside: message.outside,
    });
    return { ok: true, turnId: '', position: 0 };
  }
  // Read as Turns.start reads it, in the same tick.
  const position = chat.busy ? chat.queued + 1 : 0;
  const turn = {
    text: message.text,
    messageId: shown.messageId,
    sender: message.from,
    outside: message.outside,
    payer: message.payer,
    budgetUsd: message.budgetUsd,
  };
  return { ok: true, turnId: await parts.turns.start(chat, turn, '', undefined, watch), position };
}
