/** `/name rest of the message` → its parts. Not a command: null. */
export interface CommandLine {
  name: string;
  /** Everything after the command word, untouched (may span lines). */
  rest: string;
}

/**
 * A command as every transport hands it on: `/name rest…`. Whatever a chat app adds to a
 * command (`/cmd@bot`, `/bridge cmd`, a mention) its transport takes off first.
 */
export function parseCommandLine(text: string): CommandLine | null {
  const match = /^\/([A-Za-z0-9_]{1,32})(?=\s|$)/.exec(text);
  if (!match) return null;
  const [whole, name] = match;
  return { name: name!.toLowerCase(), rest: text.slice(whole.length).trim() };
}
