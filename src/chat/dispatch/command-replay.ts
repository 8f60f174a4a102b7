import type { Log } from '../../kernel/log/logger.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { chatKey, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { RESUME_ATTEMPTS } from '../../kernel/policy/resume-attempts.ts';
import type { BegunCommand } from '../../kernel/store/chat-store.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { parseCommandLine } from './command-line.ts';
import { messageKey, type Command, type CommandEffect, type CommandScope } from './command.ts';

/** What is said of a command whose work cannot be found. */
const UNKNOWN: CommandEffect = { kind: 'unknown', said: 'it had begun, and whether it was done is unknown. Check, and send it again if it was not.' };

export interface CommandReplayParts {
  commands: readonly Command[];
  scope: () => CommandScope;
  out: Outbound;
  /** Carries the command out again, as the pipeline's command step does (its checks, its deadline, noted once). */
  run: (chat: ChatSession, message: IncomingMessage) => Promise<void>;
  /** The bridge is restarting again already: what is left stays begun, for the next start. */
  stopping: () => boolean;
  log: Log;
}

/**
 * At the start, once runs, orchestrations and schedules are taken up: each command a restart cut
 * short, chat by chat, in order. One whose work is there (a run, a plan, a schedule, found by the
 * message that asked for it) is done; one whose work is not is carried out again, once (each
 * replay counted before it starts, so a crash it causes cannot loop); the chat is told of the
 * rest, plainly: what is known of whether it ran.
 */
export async function replayCommands(chats: readonly ChatSession[], parts: CommandReplayParts): Promise<void> {
  const byName = new Map(parts.commands.map((command) => [command.name, command]));
  // Chat by chat in order, the chats side by side: one command waiting out its deadline holds no other chat's.
  await Promise.all(chats.map((chat) => replayChat(chat, byName, parts)));
}

async function replayChat(chat: ChatSession, byName: ReadonlyMap<string, Command>, parts: CommandReplayParts): Promise<void> {
  for (const begun of [...(chat.record.commandsCut ?? [])]) {
    if (parts.stopping()) return void parts.log.info('restarting again before the commands cut short were all taken up: the rest waits for the next start');
    const effect = effectOf(begun, byName, parts.scope());
    const log = parts.log.child({ chat: chatKey(chat.address), message: begun.messageId });
    if (effect.kind === 'done') {
      log.info(`${commandWord(begun)} cut short by the restart had made its work: nothing to do again`);
      await chat.messages.commandDone(begun.messageId, begun.text);
    } else if (effect.kind === 'none' && (begun.replays ?? 0) < RESUME_ATTEMPTS) {
      log.info(`carrying out ${commandWord(begun)} again: the restart cut it short before it made its work`);
      await chat.messages.commandReplayed(begun);
      // A failure is its chat's alone (as when it first ran): the start goes on; it stays begun, and the next start looks again.
      await parts.run(chat, begun.message!).catch((error: Error) => log.error({ err: error }, `${commandWord(begun)} failed when carried out again`));
    } else {
      const said =
        effect.kind === 'unknown'
          ? effect.said
          : `it was not done: the bridge restarted each of the ${RESUME_ATTEMPTS} times it tried again. Send it again once the bridge is steady.`;
      await tell(chat, begun, said, parts);
    }
  }
}

/** What is known of it: only a command that says (and whose whole message was kept) can be found, or carried out again. */
function effectOf(begun: BegunCommand, byName: ReadonlyMap<string, Command>, scope: CommandScope): CommandEffect {
  const line = begun.message && parseCommandLine(begun.message.text);
  const command = line ? byName.get(line.name) : undefined;
  const key = begun.message && messageKey(begun.message);
  if (!line || !key || !command?.effectOf) return UNKNOWN;
  return command.effectOf(key, line.rest, scope) ?? UNKNOWN;
}

function commandWord(begun: BegunCommand): string {
  return begun.text.trim().split(/\s+/)[0] ?? 'a command';
}

/** Named to the chat, in reply to it; it leaves the begun commands once the chat was told. */
async function tell(chat: ChatSession, begun: BegunCommand, said: string, parts: CommandReplayParts): Promise<void> {
  const text = `⚠️ The bridge restarted while it was doing ${truncate(begun.text.replace(/\s+/g, ' '), 80)}: ${said}`;
  try {
    await parts.out.send(chat.address, plain(text), begun.messageId ? { replyTo: begun.messageId } : {});
    await chat.messages.commandDone(begun.messageId, begun.text);
  } catch (error) {
    parts.log.warn({ chat: chatKey(chat.address) }, `telling the chat about a command cut short failed: ${(error as Error).message}`);
  }
}
