/**
 * What the bot needs in a server, as the invite asks for it: see channels, read their history,
 * write (in threads too), attach files, react, and its application commands.
 */
const PERMISSIONS = {
  addReactions: 1n << 6n,
  viewChannel: 1n << 10n,
  sendMessages: 1n << 11n,
  embedLinks: 1n << 14n,
  attachFiles: 1n << 15n,
  readMessageHistory: 1n << 16n,
  useApplicationCommands: 1n << 31n,
  sendMessagesInThreads: 1n << 38n,
};

export const INVITE_PERMISSIONS = Object.values(PERMISSIONS).reduce((all, bit) => all | bit, 0n);

/** The link that adds the bot to a server, with its commands and the permissions above. */
export function inviteUrl(applicationId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${applicationId}&scope=bot+applications.commands&permissions=${INVITE_PERMISSIONS}`;
}

/** Where the Message Content switch is. */
export const MESSAGE_CONTENT_HOW =
  'Discord Developer Portal → your application → Bot → Privileged Gateway Intents → turn on Message Content Intent, then restart the bridge';
