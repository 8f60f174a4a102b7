import type { Steering } from '../turns/steering.ts';
import { step, type MessageContext, type Step } from './step.ts';

/** A message to a chat whose agent is at work goes by its busy mode (/busy): into the running turn, or interrupting it, or on to the queue. */
export function steer(parts: { steering: Pick<Steering, 'take'> }): Step<MessageContext> {
  return step('steer', async ({ chat, message }, next) => {
    if (await parts.steering.take(chat, message)) return;
    await next();
  });
}
