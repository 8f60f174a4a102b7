import type { Settings } from '../../config/bridge-manifest.ts';
import type { Log } from '../../log/logger.ts';
import { chatKey, type ChatRef, type ChatUser } from '../../ports/transport.ts';
import { plain } from '../../rich/index.ts';
import type { Command, CommandScope } from '../command.ts';
import { runCommand } from '../command-runner.ts';
import { step, type Step } from './compose.ts';
import type { MessageContext } from './context.ts';

export interface CommandParts {
  commands: readonly Command[];
  /** What every part of a command is given. */
  scope: () => CommandScope;
  isOwner: (chat: ChatRef, user: ChatUser) => boolean;
  settings: Pick<Settings, 'commandTimeoutSeconds' | 'fileTransferTimeoutSeconds'>;
  log: Log;
}

/** A command runs here, within its deadline and at most once, and ends the message: the rest is for words to the agent. */
export function command(parts: CommandParts): Step<MessageContext> {
  const byName = new Map(parts.commands.map((registered) => [registered.name, registered]));
  return step('command', async ({ message, command, chat, reply }, next) => {
    if (!command) return next();
    const registered = byName.get(command.name);
    if (!registered) {
      await reply(plain(`Unknown command /${command.name}. Try /help.`));
      return;
    }
    const access = typeof registered.access === 'function' ? registered.access(command.rest) : registered.access;
    if (access === 'owner' && !parts.isOwner(message.address, message.user)) {
      const used = command.rest.trim() ? `/${command.name} ${command.rest.trim()}` : `/${command.name}`;
      await reply(plain(`⛔ Only the owner (BRIDGE_OWNERS, by default the first id in BRIDGE_ALLOWED_USERS) may use ${used}.`));
      return;
    }
    const { settings } = parts;
    // At most once: a command cut short by a restart is not run again, and its chat is told.
    await chat.messages.commandBegun(message.messageId, message.text);
    await runCommand(registered, {
      timeoutSeconds: registered.timeoutSeconds?.(settings) ?? settings.commandTimeoutSeconds,
      context: (signal) => ({ ...parts.scope(), chat, message, args: command.rest, reply, usage: registered.usage, signal }),
      log: parts.log.child({ chat: chatKey(message.address) }),
    });
    await chat.messages.commandDone(message.messageId, message.text);
  });
}
