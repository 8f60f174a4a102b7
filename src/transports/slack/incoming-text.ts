/**
 * What a person wrote, from Slack's markup to the text the core reads: the bot's own mention
 * taken off the front, a command word turned into `/command`, other mentions, channels and
 * links as a reader sees them, and Slack's escapes undone.
 */
import { mentionedText } from '../serving/incoming.ts';

/** Slack's markup in a message's text as plain words: `<@U1>` → `@U1`, `<#C1|general>` → `#general`, `<https://x|x>` → `https://x`. */
export function plainFromSlack(text: string): string {
  return text
    .replace(/<@([UW][A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) => `@${name ?? id}`)
    .replace(/<#([CG][A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) => `#${name || id}`)
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>/g, (_m, name?: string) => name ?? '@group')
    .replace(/<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>/g, (_m, url: string, label?: string) =>
      label && label !== url && !url.endsWith(label) ? `${label} (${url})` : url,
    )
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Whether the text mentions the bot anywhere. */
export function mentions(text: string, botUserId: string): boolean {
  return new RegExp(`<@${botUserId}(\\|[^>]*)?>`).test(text);
}

/**
 * The text the core gets: `@bot spawn "x"` → `/spawn "x"`, and "/status" typed as text (in a
 * thread, where Slack offers no slash commands) is a command too (see mentionedText).
 */
export function coreText(raw: string, botUserId: string, commands: ReadonlySet<string>): string {
  const mention = { leading: new RegExp(`^\\s*<@${botUserId}(?:\\|[^>]*)?>[\\s:,]*`), mention: new RegExp(`<@${botUserId}(?:\\|[^>]*)?>`, 'g') };
  return mentionedText(raw, mention, commands, plainFromSlack);
}

/** Whether the text opens by addressing someone else (`@bob can you…`): in the bot's thread, that is people talking among themselves. */
export function addressedToAnother(text: string, botUserId: string): boolean {
  const first = /^\s*<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/.exec(text);
  return first !== null && first[1] !== botUserId;
}
