import { handoffCommand } from '../../engine/adapters/handoff.ts';
import { code, rich, type RichText } from '../../kernel/rich/index.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { ChatSession } from './chat-session.ts';
import { terminalHome } from '../../engine/sandbox/walls.ts';

/**
 * The terminal command that continues the chat's session now; none before its first turn, while
 * no turn of it has been answered (the CLI named a session its model never saw), or for a CLI
 * that cannot be handed one. In walls it runs in a home for the terminal, whose configuration
 * is the operator's (laid afresh when `fresh`: /handoff), never the agent's.
 */
export function chatHandoff(chat: ChatSession, config: Pick<EngineSettings, 'agentUser'>, fresh = false): string | undefined {
  const sessionId = chat.record.cliSessionId;
  if (!sessionId || !chat.adapter.handoff || !sessionAnswered(chat)) return undefined;
  let home: string | undefined;
  try {
    home = terminalHome(chat.record.key, chat.adapter.walls, fresh);
  } catch (error) {
    // /handoff says why; an answer's footer is left off rather than the answer lost.
    if (fresh) throw error;
    return undefined;
  }
  return handoffCommand(chat.adapter, sessionId, chat.record.workdir, {
    agentUser: config.agentUser?.name,
    home,
  });
}

/** The line under an answer when the chat asked for it (/handoff on). */
export function handoffFooter(command: string): RichText {
  return rich`🖥 ${code(command)}`;
}

/** Whether the chat's current session has had an answer: one the bridge saw every turn of fail is its CLI's in name only. */
export function sessionAnswered(chat: ChatSession): boolean {
  const entry = chat.record.sessions?.find((session) => session.id === chat.record.cliSessionId);
  return !entry?.unanswered;
}
