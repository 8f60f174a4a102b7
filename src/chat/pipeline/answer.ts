import type { IncomingMessage } from '../../kernel/ports/chat.ts';
import { step, type MessageContext, type Step } from './step.ts';

/** What waits for words in a chat: the agent's questions and plans (AgentQuestions). */
export interface WaitingForWords {
  /** Takes the message as the answer, given who started the running turn: true when taken. */
  take(message: IncomingMessage, turnStartedBy: string | undefined): boolean;
}

/** A message that answers the agent's question or plan is that answer, not a prompt; the running turn notes it, as a steer. */
export function answer(parts: { questions: WaitingForWords | undefined }): Step<MessageContext> {
  return step('answer', async ({ message, chat }, next) => {
    if (!parts.questions?.take(message, chat.current?.by)) return next();
    if (chat.current) await chat.messages.noteSteered(chat.current.id, message.text, message.messageId);
  });
}
