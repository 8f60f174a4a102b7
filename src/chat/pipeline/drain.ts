import { nanoid } from 'nanoid';
import { promptWithFiles } from '../../engine/files/prompt.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import { chatKey, type Outbound } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { Attachments, Prompt } from '../session/attachments.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { DRAIN_WORDS, type DrainReason } from '../turns/leaving.ts';
import { step, type MessageContext, type Step } from './step.ts';

export interface DrainParts {
  /** Why a drain has begun (a restart, or leaving): no new turn starts. None: no drain. */
  draining: () => DrainReason | undefined;
  attachments: Pick<Attachments, 'take'>;
  out: Outbound;
  log: Log;
}

/** While the bridge drains (for a restart, or to leave), a message starts no turn: it is kept, with its files, to run after it. */
export function drain(parts: DrainParts): Step<MessageContext> {
  return step('drain', async ({ chat, message }, next) => {
    if (!parts.draining()) return next();
    await keepForRestart(parts, chat, message);
  });
}

/** A message that came during a drain: kept, with its files, to run after the restart, and its person told. */
export async function keepForRestart(parts: DrainParts, chat: ChatSession, prompt: Prompt): Promise<void> {
  const files = [...(await parts.attachments.take(chat, prompt.user.id)), ...(prompt.files ?? [])];
  const text = promptWithFiles(prompt.text, files, chat.record.workdir);
  await chat.messages.addPending({ id: nanoid(10), text, by: prompt.user.id, messageId: prompt.messageId });
  await warnIfFails(
    parts.out.send(chat.address, plain(DRAIN_WORDS[parts.draining() ?? 'restart'].kept), { replyTo: prompt.messageId }),
    parts.log,
    'the restart notice',
    { chat: chatKey(chat.address) },
  );
}
