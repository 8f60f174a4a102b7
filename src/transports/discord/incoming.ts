import { MessageType, type Message } from 'discord.js';
import type { ChatRef, ChatUser, IncomingMessage } from '../../kernel/ports/chat.ts';
import { attachmentsOf } from './attachments.ts';
import { discordChat, snowflakeOrder } from './id.ts';

/** What a Discord message is to the bridge. */
export type Incoming =
  | { kind: 'message'; message: IncomingMessage }
  /** Not for the bridge: another bot's, a system message, a guild message that does not mention the bot. */
  | { kind: 'ignored' }
  /** For the bridge, but Discord sent it empty: the Message Content intent is off. */
  | { kind: 'empty'; address: ChatRef; user: ChatUser; messageId: string };

/**
 * A message as the bridge takes it: a DM always; in a guild's text channel, one that mentions
 * the bot (a reply to the bot mentions it too); in a thread, every message (a thread is a
 * session of its own). The mention is taken out of the text, so
 * `@Bridge /status` is the command `/status`.
 */
export function incomingOf(message: Message, botId: string): Incoming {
  if (message.author.bot || message.system || (message.type !== MessageType.Default && message.type !== MessageType.Reply)) return { kind: 'ignored' };
  const channel = message.channel;
  const user: ChatUser = { id: message.author.id, name: message.author.globalName ?? message.author.username };
  let address: ChatRef;
  let chatTitle: string;
  if (channel.isDMBased()) {
    address = discordChat(channel.id);
    chatTitle = user.name ?? message.author.username;
  } else if (channel.isThread()) {
    if (!channel.parentId) return { kind: 'ignored' };
    address = discordChat(channel.parentId, channel.id);
    chatTitle = `${message.guild?.name ?? 'server'} #${channel.parent?.name ?? channel.parentId} › ${channel.name}`;
  } else {
    if (!message.mentions.users.has(botId)) return { kind: 'ignored' };
    address = discordChat(channel.id);
    chatTitle = `${message.guild?.name ?? 'server'} #${channel.name}`;
  }
  const text = withoutMention(message.content, botId);
  const attachments = attachmentsOf(message.attachments, message.flags.bitfield);
  if (text === '' && !attachments.length && !channel.isDMBased() && message.content === '') return { kind: 'empty', address, user, messageId: message.id };
  const replied = message.reference?.messageId ? message.channel.messages.cache.get(message.reference.messageId) : undefined;
  const repliedFiles = replied ? attachmentsOf(replied.attachments, replied.flags.bitfield) : [];
  const repliedText = replied ? withoutMention(replied.content, botId) : '';
  return {
    kind: 'message',
    message: {
      address,
      user,
      text,
      messageId: message.id,
      order: snowflakeOrder(message.id),
      ...(attachments.length ? { attachments } : {}),
      ...(channel.isDMBased() ? { private: true } : {}),
      chatTitle,
      ...(replied && (repliedText || repliedFiles.length)
        ? {
            replyTo: {
              text: repliedText,
              from: replied.author.globalName ?? replied.author.username,
              fromId: replied.author.id,
              ...(repliedFiles.length ? { attachments: repliedFiles } : {}),
            },
          }
        : {}),
    },
  };
}

/** The text with the bot's mention taken out (`<@id>` or the older `<@!id>`). */
export function withoutMention(content: string, botId: string): string {
  return content
    .replace(new RegExp(`<@!?${botId}>`, 'g'), ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
