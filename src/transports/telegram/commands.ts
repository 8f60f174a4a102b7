/**
 * A message's text as the bridge takes it from a Telegram group: `/cmd@thisbot rest` is
 * `/cmd rest`, and `/cmd@otherbot …` is another bot's to answer (undefined: not handed on).
 * Telegram's username match is case-insensitive.
 */
export function ownCommandText(text: string, botUsername: string): string | undefined {
  const match = /^\/([A-Za-z0-9_]{1,32})@([A-Za-z0-9_]{3,64})(?=\s|$)/.exec(text);
  if (!match) return text;
  const [whole, name, target] = match;
  if (target!.toLowerCase() !== botUsername.toLowerCase()) return undefined;
  return `/${name!}${text.slice(whole.length)}`;
}
