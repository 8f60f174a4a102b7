import { Intent, type GatewaySession } from './gateway.ts';
import { ChannelType, type MessageRecord, type World } from './world.ts';

/**
 * MESSAGE_CREATE as each session gets it: a DM needs DIRECT_MESSAGES, a guild's message
 * GUILD_MESSAGES; without the privileged MESSAGE_CONTENT intent a guild message arrives with
 * its content, attachments, embeds and components empty, unless the bot wrote it or is
 * mentioned in it (Discord's own exceptions).
 */
export function messageDispatch(world: World, message: MessageRecord): (session: GatewaySession) => unknown {
  return (session) => {
    const channel = world.channels.get(message.channelId);
    if (!channel) return undefined;
    const dm = channel.type === ChannelType.DM;
    if (!(session.intents & (dm ? Intent.DirectMessages : Intent.GuildMessages))) return undefined;
    const hideContent = !dm && !(session.intents & Intent.MessageContent) && message.authorId !== world.bot.id && !message.mentions.includes(world.bot.id);
    return world.messagePayload(message, { hideContent });
  };
}

/** Events that need GUILDS (guilds, channels, threads). */
export function guildDispatch(payload: unknown): (session: GatewaySession) => unknown {
  return (session) => (session.intents & Intent.Guilds ? payload : undefined);
}
