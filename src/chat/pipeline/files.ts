import type { Attachments } from '../session/attachments.ts';
import { step, type MessageContext, type Step } from './step.ts';

/**
 * A message's files are saved (and voice heard) before anything else: with words they make a
 * prompt of their own, alone they wait for the sender's next message. Files captioned with a
 * command wait for it (`/spawn` takes them), and the command goes on.
 */
export function files(parts: { attachments: Pick<Attachments, 'receive'> }): Step<MessageContext> {
  return step('files', async ({ message, command, chat }, next) => {
    if (!message.attachments?.length) return next();
    await parts.attachments.receive(chat, command ? { ...message, text: '' } : message);
    if (command) await next();
  });
}
