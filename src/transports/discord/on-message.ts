import type { Message } from 'discord.js';
import { plain } from '../../kernel/rich/index.ts';
import type { GatewayParts } from './gateway-parts.ts';
import { incomingOf } from './incoming.ts';

/**
 * One message from Discord, live or fetched after a restart: handed to the bridge when it is
 * for it; an empty one (the Message Content intent off) explained once.
 */
export async function onMessage(parts: GatewayParts, message: Message): Promise<void> {
  const { host, out, log } = parts;
  const incoming = incomingOf(message, parts.identity.user.id);
  if (incoming.kind === 'ignored') return;
  // Taken: a restart reads on from the next one.
  parts.marks.mark(message.channelId, message.id);
  if (incoming.kind === 'empty') {
    if (!host.isAllowed(incoming.address, incoming.user)) return;
    if (parts.identity.messageContent) {
      // Stickers, polls: nothing the agent can take.
      await out.send(incoming.address, plain('Only text and files reach the agent.'), { replyTo: incoming.messageId });
      return;
    }
    await parts.notice.say(incoming.address, incoming.messageId, out, log);
    return;
  }
  if (incoming.message.private) parts.dmPeople.set(incoming.message.address.chat, incoming.message.user.id);
  await host.handleMessage(incoming.message);
}
