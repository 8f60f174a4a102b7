import type { IncomingMessage } from '../../kernel/ports/chat.ts';
import type { Allowlist } from '../people/allowlist.ts';
import type { Attachments, Prompt } from '../session/attachments.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { ChatSessions } from '../session/chat-sessions.ts';
import { parseCommandLine } from '../dispatch/command-line.ts';
import type { Steering } from '../turns/steering.ts';
import { allow, type AllowParts } from './allow.ts';
import { answer, type WaitingForWords } from './answer.ts';
import { blank } from './blank.ts';
import { budget } from './budget.ts';
import type { WorkBudget } from '../people/spending.ts';
import { command, type CommandParts } from './command.ts';
import { pipelineOf, type MessageContext, type Step } from './step.ts';
import { dedupe } from './dedupe.ts';
import { drain } from './drain.ts';
import { files } from './files.ts';
import { groupTurns, type GroupTurnsParts } from './group-turns.ts';
import { queue, type QueueParts } from './queue.ts';
import { steer } from './steer.ts';

export type { MessageContext } from './step.ts';
export type { WaitingForWords } from './answer.ts';

export interface PipelineParts extends CommandParts, Omit<QueueParts, 'attachments'>, AllowParts, GroupTurnsParts {
  chats: Pick<ChatSessions, 'get'>;
  allowlist: Allowlist;
  attachments: Pick<Attachments, 'receive' | 'take'>;
  /** What waits for words in a chat (the agent's questions); none: nothing does. */
  questions: WaitingForWords | undefined;
  /** What each chat may still spend today: past it, no new turn starts. */
  budget: WorkBudget | undefined;
  steering: Pick<Steering, 'take'>;
}

/**
 * How a message is handled, step by step. A person's message goes through every step; a prompt
 * the bridge made of a message (an album's files with their words) enters at `budget`, where
 * what is words for the agent begins.
 */
export function messageSteps(parts: PipelineParts): { message: Step<MessageContext>[]; prompt: Step<MessageContext>[] } {
  const prompt = [budget(parts), drain(parts), steer(parts), queue(parts)];
  return { message: [allow(parts), dedupe(), groupTurns(parts), files(parts), command(parts), answer(parts), blank(), ...prompt], prompt };
}

/**
 * The steps composed: `message` for what a transport hands on, `prompt` for a prompt of a chat
 * (an album's), `command` for a command a restart cut short, carried out again (its message was
 * let in, and its files received, before).
 */
export function messagePipeline(parts: PipelineParts): {
  message: (message: IncomingMessage) => Promise<void>;
  prompt: (chat: ChatSession, prompt: Prompt) => Promise<void>;
  command: (chat: ChatSession, message: IncomingMessage) => Promise<void>;
} {
  const steps = messageSteps(parts);
  const message = pipelineOf(steps.message);
  const prompt = pipelineOf(steps.prompt);
  const again = pipelineOf([command(parts)]);
  const context = (incoming: Prompt, chat?: ChatSession, isPrompt = chat !== undefined): MessageContext => {
    return {
      message: incoming,
      command: isPrompt ? null : parseCommandLine(incoming.text),
      get chat() {
        return (chat ??= parts.chats.get(incoming.address));
      },
      reply: (text, options = {}) => parts.out.send(incoming.address, text, { replyTo: incoming.messageId, ...options }),
    };
  };
  return {
    message: (incoming) => message(context(incoming)),
    prompt: (chat, incoming) => prompt(context(incoming, chat)),
    command: (chat, incoming) => again(context(incoming, chat, false)),
  };
}
