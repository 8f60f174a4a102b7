import { Routes, type APIGuild, type APIGuildMember, type REST } from 'discord.js';
import { CachedMembers } from '../../work/access/member-cache.ts';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { canViewChannel } from './channel-view.ts';
import { discordUserId } from './id.ts';
import { discordCode } from './rest.ts';

/** Look-ups under way at once: a dashboard page of many chats asks side by side, without a burst of 429s. */
const LOOKUPS_AT_ONCE = 5;
/** Answers meaning "no": the channel, guild or member is unknown, or the bot may not see it. */
const NOT_THERE = new Set([10003, 10004, 10007, 10013, 50001]);

/**
 * Who is in a Discord chat: a DM is its person's (learnt from their messages, or asked of
 * Discord); a server's channel (and its threads) is its server's members' who may see it
 * (their roles and the channel's overwrites, as Discord decides), the answer kept a while
 * (CachedMembers). An unknown channel, guild or
 * member is a definite no; anything else (the network, a 5xx) is "cannot tell now".
 */
export function discordMembers(rest: REST, dmPeople: DmPeople): CachedMembers {
  return new CachedMembers(membersThrough(rest, dmPeople));
}

/** Whose each DM channel is, as their messages showed. */
export class DmPeople {
  private readonly people = new Map<string, string>();

  saw(channelId: string, userId: string): void {
    this.people.set(channelId, userId);
  }

  of(channelId: string): string | undefined {
    return this.people.get(channelId);
  }
}

export function membersThrough(rest: REST, dmPeople: DmPeople, atOnce = LOOKUPS_AT_ONCE): ChatMembers {
  return askedMembers(
    discordUserId,
    async (chat, user, limited) => {
      const known = dmPeople.of(chat.chat);
      if (known !== undefined) return known === user;
      const channel = (await limited(() => rest.get(Routes.channel(chat.chat)))) as {
        guild_id?: string;
        recipients?: { id: string }[];
        permission_overwrites?: { id: string; type: number; allow: string; deny: string }[];
      };
      if (channel.recipients) {
        const recipient = channel.recipients[0]?.id;
        if (recipient) dmPeople.saw(chat.chat, recipient);
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
    atOnce,
  );
}
