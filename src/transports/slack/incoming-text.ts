/**
 * What a person wrote, from Slack's markup to the text the core reads: the bot's own mention
 * taken off the front, a command word turned into `/command`, other mentions, channels and
 * links as a reader sees them, and Slack's escapes undone.
 */
import { asCommand } from '../serving/incoming.ts';

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
 * The text the core gets: with a leading `@bot`, a first word that names a command becomes
 * `/command rest…` (`@bot spawn "x"` → `/spawn "x"`); any other first word is a prompt. A
 * mention elsewhere in the text is dropped from it, the rest being the prompt.
 */
export function coreText(raw: string, botUserId: string, commands: ReadonlySet<string>): string {
  const mention = new RegExp(`<@${botUserId}(?:\\|[^>]*)?>`, 'g');
  const leading = new RegExp(`^\\s*<@${botUserId}(?:\\|[^>]*)?>[\\s:,]*`);
  if (leading.test(raw)) {
    const rest = plainFromSlack(raw.replace(leading, '').replace(mention, '').trim());
    return asCommand(rest, commands) ?? rest;
  }
  const text = plainFromSlack(
    raw
      .replace(mention, '')
      .replace(/[ \t]{2,}/g, ' ')
      .trim(),
  );
  // "/status" typed as text (in a thread, where Slack offers no slash commands) is a command too.
  return text.startsWith('/') ? (asCommand(text.slice(1), commands) ?? text) : text;
}

/** Whether the text opens by addressing someone else (`@bob can you…`): in the bot's thread, that is people talking among themselves. */
export function addressedToAnother(text: string, botUserId: string): boolean {
  const first = /^\s*<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/.exec(text);
  return first !== null && first[1] !== botUserId;
}
