import { MessageType, type Message } from 'discord.js';
import type { ChatRef, ChatUser, IncomingMessage } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { GatewayParts } from './gateway-parts.ts';
import { attachmentsOf } from './attachments.ts';
import { discordChat, snowflakeOrder } from './id.ts';
import { replyOf } from '../serving/incoming.ts';
import { markRead } from './read-marks.ts';

/**
 * A message as the bridge takes it: a DM always; in a guild's text channel, one that mentions
 * the bot (a reply to the bot mentions it too); in a thread, every message (a thread is a
 * session of its own). The mention is taken out of the text, so
 * `@Bridge /status` is the command `/status`.
 */
function incomingOf(message: Message, botId: string): IncomingMessage | undefined {
  if (message.author.bot || message.system || (message.type !== MessageType.Default && message.type !== MessageType.Reply)) return undefined;
  const channel = message.channel;
  const user: ChatUser = { id: message.author.id, name: message.author.globalName ?? message.author.username };
  let address: ChatRef;
  let chatTitle: string;
  if (channel.isDMBased()) {
    address = discordChat(channel.id);
    chatTitle = user.name ?? message.author.username;
  } else if (channel.isThread()) {
    if (!channel.parentId) return undefined;
    address = discordChat(channel.parentId, channel.id);
    chatTitle = `${message.guild?.name ?? 'server'} #${channel.parent?.name ?? channel.parentId} › ${channel.name}`;
  } else {
    if (!message.mentions.users.has(botId)) return undefined;
    address = discordChat(channel.id);
    chatTitle = `${message.guild?.name ?? 'server'} #${channel.name}`;
  }
  const attachments = attachmentsOf(message.attachments, message.flags.bitfield);
  const replied = message.reference?.messageId ? message.channel.messages.cache.get(message.reference.messageId) : undefined;
  return {
    address,
    user,
    text: withoutMention(message.content, botId),
    messageId: message.id,
    order: snowflakeOrder(message.id),
    ...(attachments.length ? { attachments } : {}),
    ...(channel.isDMBased() ? { private: true } : {}),
    chatTitle,
    ...(replied &&
      replyOf(withoutMention(replied.content, botId), attachmentsOf(replied.attachments, replied.flags.bitfield), {
        name: replied.author.globalName ?? replied.author.username,
        id: replied.author.id,
      })),
  };
}

/** The text with the bot's mention taken out (`<@id>` or the older `<@!id>`). */
function withoutMention(content: string, botId: string): string {
  return content
    .replace(new RegExp(`<@!?${botId}>`, 'g'), ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * One message from Discord, live or fetched after a restart: handed to the bridge when it is
 * for it; an empty one (the Message Content intent off) explained once.
 */
export async function onMessage(parts: GatewayParts, message: Message): Promise<void> {
  const { host, out, log } = parts;
  const incoming = incomingOf(message, parts.identity.user.id);
  if (!incoming) return;
  // Taken: a restart reads on from the next one.
  markRead(parts.marks, message.channelId, message.id);
  // For the bridge, but sent empty (no text, no files) in a server.
  if (message.content === '' && !incoming.attachments && !incoming.private) {
    if (!host.isAllowed(incoming.address, incoming.user)) return;
    if (parts.identity.messageContent) {
      // Stickers, polls: nothing the agent can take.
      await out.send(incoming.address, plain('Only text and files reach the agent.'), { replyTo: message.id });
      return;
    }
    await parts.notice.say(incoming.address, message.id, out, log);
    return;
  }
  if (incoming.private) parts.dmPeople.set(incoming.address.chat, incoming.user.id);
  await host.handleMessage(incoming);
}
