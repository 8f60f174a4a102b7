import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey, type ChatRef, type ChatUser } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { accessFor, startsWork, type Command, type CommandScope } from '../dispatch/command.ts';
import { notNamedForTurns } from '../people/refusals.ts';
import { aRole, covers, roleNamed, type Role } from '../people/roles.ts';
import { runCommand } from '../dispatch/command-runner.ts';
import { step, type Step } from './step.ts';
import type { MessageContext } from './context.ts';

export interface CommandParts {
  commands: readonly Command[];
  /** What every part of a command is given. */
  scope: () => CommandScope;
  roleOf: (chat: ChatRef, user: ChatUser) => Role;
  /** Whether this person may start an agent's work here (BRIDGE_GROUP_TURNS, /allow). */
  mayStartTurns: (chat: ChatRef, user: ChatUser, inGroup: boolean) => boolean;
  settings: Pick<Settings, 'commandTimeoutSeconds' | 'fileTransferTimeoutSeconds'>;
  log: Log;
}

/** A command runs here, within its deadline and once, and ends the message: the rest is for words to the agent. A restart's replay enters here too. */
export function command(parts: CommandParts): Step<MessageContext> {
  const byName = new Map(parts.commands.map((registered) => [registered.name, registered]));
  return step('command', async ({ message, command, chat, reply }, next) => {
    if (!command) return next();
    const registered = byName.get(command.name);
    // One of the agent's own commands (an ACP agent's, which /help lists): its prompt, as it is.
    if (!registered && chat.agent.agentCommands.some((own) => own.name.toLowerCase() === command.name)) return next();
    if (!registered) {
      await reply(plain(`Unknown command /${command.name}. Try /help.`));
      return;
    }
    const needed = accessFor(registered, command.rest);
    const role = parts.roleOf(message.address, message.user);
    if (!covers(role, needed)) {
      const used = command.rest.trim() ? `/${command.name} ${command.rest.trim()}` : `/${command.name}`;
      await reply(plain(`⛔ ${used} needs ${roleNamed(needed)}; you are ${aRole(role)} (/whoami says why).`));
      return;
    }
    if (startsWork(registered, command.rest) && !parts.mayStartTurns(message.address, message.user, !message.private)) {
      await reply(notNamedForTurns());
      return;
    }
    const { settings } = parts;
    // Noted before it acts: a restart that cuts it short carries it out again if its work is not there (once), or tells the chat.
    await chat.messages.commandBegun(message, registered.effectOf !== undefined && message.messageId !== undefined);
    await runCommand(registered, {
      timeoutSeconds: registered.timeoutSeconds?.(settings) ?? settings.commandTimeoutSeconds,
      context: (signal) => ({ ...parts.scope(), chat, message, args: command.rest, reply, usage: registered.usage, signal }),
      log: parts.log.child({ chat: chatKey(message.address) }),
    });
    await chat.messages.commandDone(message.messageId, message.text);
  });
}
