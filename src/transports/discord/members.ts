import { Routes, type APIGuild, type APIGuildMember, type REST } from 'discord.js';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { canViewChannel } from './channel-view.ts';
import { discordUserId } from './id.ts';
import { discordCode } from './rest.ts';

/** Answers meaning "no": the channel, guild or member is unknown, or the bot may not see it. */
const NOT_THERE = new Set([10003, 10004, 10007, 10013, 50001]);

/** Whose each DM channel is (by its id), as their messages showed. */
export class DmPeople extends Map<string, string> {}

/**
 * Who is in a Discord chat: a DM is its person's (learnt from their messages, or asked of
 * Discord); a server's channel (and its threads) is its server's members' who may see it
 * (their roles and the channel's overwrites, as Discord decides). An unknown channel, guild or
 * member is a definite no; anything else (the network, a 5xx) is "cannot tell now".
 */
export function membersThrough(rest: REST, dmPeople: DmPeople): ChatMembers {
  return askedMembers(
    discordUserId,
    async (chat, user, limited) => {
      const known = dmPeople.get(chat.chat);
      if (known !== undefined) return known === user;
      const channel = (await limited(() => rest.get(Routes.channel(chat.chat)))) as {
        guild_id?: string;
        recipients?: { id: string }[];
        permission_overwrites?: { id: string; type: number; allow: string; deny: string }[];
      };
      if (channel.recipients) {
        const recipient = channel.recipients[0]?.id;
        if (recipient) dmPeople.set(chat.chat, recipient);
        return recipient === user;
      }
      const guildId = channel.guild_id;
      if (!guildId) return false;
      const member = (await limited(() => rest.get(Routes.guildMember(guildId, user)))) as APIGuildMember;
      const guild = (await limited(() => rest.get(Routes.guild(guildId)))) as APIGuild;
      // A member of the server who may not see this channel is not one of its people.
      return canViewChannel({
        guildId,
        ownerId: guild.owner_id,
        roles: guild.roles,
        memberRoles: member.roles,
        userId: user,
        overwrites: channel.permission_overwrites ?? [],
      });
    },
    (error) => NOT_THERE.has(discordCode(error) ?? 0),
  );
}
