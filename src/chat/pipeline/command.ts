import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import { code, plain, rich } from '../../kernel/rich/index.ts';
import { askedWith, UsageError, type Command, type CommandScope } from '../dispatch/command.ts';
import { NOT_NAMED_FOR_TURNS } from '../people/refusals.ts';
import { aRole, covers, roleNamed } from '../people/roles.ts';
import { runWithDeadline } from '../dispatch/deadline.ts';
import type { Allowlist } from '../people/allowlist.ts';
import { step, type MessageContext, type Step } from './step.ts';

export interface CommandParts {
  commands: readonly Command[];
  /** What every part of a command is given. */
  scope: () => CommandScope;
  /** What a person is here, and whether they may start an agent's work (BRIDGE_GROUP_TURNS, /allow). */
  allowlist: Pick<Allowlist, 'roleOf' | 'mayStartTurns'>;
  settings: Pick<Settings, 'commandTimeoutSeconds' | 'fileTransferTimeoutSeconds'>;
  log: Log;
}

/**
 * A command runs here, once, and ends the message: the rest is for words to the agent. A
 * restart's replay enters here too. What it returns is its answer; a wrong use is answered with
 * its message and its usage. Past its deadline its signal is aborted, the chat is told, and the
 * chat's next message is answered (the transport handles a chat's messages one after another,
 * so a command that never ended would silence the chat).
 */
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
    const needed = askedWith(registered, command.rest);
    const role = parts.allowlist.roleOf(message.address, message.user);
    if (!covers(role, needed.access)) {
      const used = command.rest.trim() ? `/${command.name} ${command.rest.trim()}` : `/${command.name}`;
      await reply(plain(`⛔ ${used} needs ${roleNamed(needed.access)}; you are ${aRole(role)} (/whoami says why).`));
      return;
    }
    if (needed.startsWork && !parts.allowlist.mayStartTurns(message.address, message.user, !message.private)) {
      await reply(NOT_NAMED_FOR_TURNS);
      return;
    }
    const { settings } = parts;
    // Noted before it acts: a restart that cuts it short carries it out again if its work is not there (once), or tells the chat.
    await chat.messages.commandBegun(message, registered.effectOf !== undefined && message.messageId !== undefined);
    const seconds = registered.timeoutSeconds?.(settings) ?? settings.commandTimeoutSeconds;
    const log = parts.log.child({ chat: chatKey(message.address) });
    const ended = await runWithDeadline(
      async (signal) => {
        try {
          const answer = await registered.run({ ...parts.scope(), chat, message, args: command.rest, reply, signal });
          if (answer) await reply(answer);
        } catch (error) {
          if (!(error instanceof UsageError)) throw error;
          await reply(rich`⚠️ ${error.message}\nUsage: ${code(registered.usage)}`);
        }
      },
      seconds * 1000,
      // Whatever the stopped command still does is its own affair: a failure after its deadline is only logged.
      (error) => log.warn({ err: error }, `/${registered.name} failed after its deadline`),
    );
    if (ended !== 'done') {
      log.warn(`/${registered.name} passed its ${seconds} s deadline and was stopped`);
      await reply(plain(`⌛ /${registered.name} took longer than ${seconds} s and was stopped. The chat goes on: try again, or ask for something smaller.`));
    }
    await chat.messages.commandDone(message.messageId, message.text);
  });
}
