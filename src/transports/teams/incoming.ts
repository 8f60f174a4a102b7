import { TurnContext, type Activity } from 'botbuilder';
import type { ChatUser } from '../../kernel/ports/chat.ts';
import { asCommand } from '../serving/incoming.ts';

/**
 * What a person wrote, as the core reads it: the bot's mention taken off, Teams' markup and
 * escapes undone, and a first word that names a command made `/command` (`@bot status` →
 * `/status`). In a personal chat a bare command word is one too, as the app's command menu
 * sends it so; elsewhere a message reaches the bot only by mentioning it.
 */
export function coreText(activity: Partial<Activity>, commands: ReadonlySet<string>): string {
  const text = plainFromTeams(TurnContext.removeRecipientMention(activity) ?? activity.text ?? '');
  return asCommand(text, commands) ?? text;
}

/** Teams' text as a reader sees it: other mentions as `@name`, tags dropped, entities undone. */
function plainFromTeams(text: string): string {
  return text
    .replace(/<at[^>]*>([^<]*)<\/at>/g, '@$1')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** Who wrote: their Microsoft Entra object id (`teams:<aad object id>`), named as Teams shows them. */
export function teamsPerson(activity: Partial<Activity>): ChatUser | undefined {
  const id = activity.from?.aadObjectId;
  if (!id) return undefined;
  return { id, ...(activity.from?.name ? { name: activity.from.name } : {}) };
}

/** The tenant an activity comes from. */
export function tenantOf(activity: Partial<Activity>): string | undefined {
  return activity.conversation?.tenantId ?? (activity.channelData as { tenant?: { id?: string } } | undefined)?.tenant?.id;
}

/** A conversation's title: a channel's name, a group chat's topic. */
export function chatTitle(activity: Partial<Activity>): string | undefined {
  const channel = (activity.channelData as { channel?: { name?: string } } | undefined)?.channel?.name;
  return channel ? `#${channel}` : activity.conversation?.name || undefined;
}
