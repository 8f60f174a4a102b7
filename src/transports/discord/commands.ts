import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, type RESTPutAPIApplicationCommandsJSONBody } from 'discord.js';

/** The one option each command takes: what follows the command word, as typed after `/name`. */
export const TEXT_OPTION = 'text';

/** Discord's rule for a command's name; its description holds 100 characters. */
const NAME = /^[-_\p{Ll}\p{N}]{1,32}$/u;
const DESCRIPTION_CHARS = 100;
/** Application commands one application may have. */
const MAX_COMMANDS = 100;

function description(text: string): string {
  if (text.length <= DESCRIPTION_CHARS) return text || 'A command of the bridge';
  const cut = text.slice(0, DESCRIPTION_CHARS - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 60))}…`;
}

/**
 * The bridge's commands as Discord's application commands (one bulk overwrite, so commands
 * that are gone leave the menu), each with one optional text option for what follows it,
 * usable in servers and in the bot's DMs. Names Discord would refuse are left out, and said.
 */
export function applicationCommands(commands: readonly { name: string; description: string }[]): {
  body: RESTPutAPIApplicationCommandsJSONBody;
  skipped: string[];
} {
  const usable = commands.filter((c) => NAME.test(c.name)).slice(0, MAX_COMMANDS);
  const skipped = commands.filter((c) => !usable.includes(c)).map((c) => c.name);
  return {
    body: usable.map((c) => ({
      type: ApplicationCommandType.ChatInput,
      name: c.name,
      description: description(c.description),
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: TEXT_OPTION,
          description: `What follows /${c.name} (see /help)`.slice(0, DESCRIPTION_CHARS),
          required: false,
        },
      ],
      contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
    })),
    skipped,
  };
}
