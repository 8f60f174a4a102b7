/** `/name@bot rest of the message` → its parts. Not a command: null. */
export interface CommandLine {
  name: string;
  /** Everything after the command word, untouched (may span lines). */
  rest: string;
  /** `/cmd@otherbot` in a group: meant for another bot, so not ours to answer. */
  forOtherBot: boolean;
}

export function parseCommandLine(text: string, botUsername?: string): CommandLine | null {
  const match = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,64}))?(?=\s|$)/.exec(text);
  if (!match) return null;
  const [whole, name, target] = match;
  const forOtherBot = !!target && !!botUsername && target.toLowerCase() !== botUsername.toLowerCase();
  return { name: name!.toLowerCase(), rest: text.slice(whole.length).trim(), forOtherBot };
}
