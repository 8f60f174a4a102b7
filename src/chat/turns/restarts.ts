import { resumed } from '../../services/telemetry/metrics-sessions.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { chatKey, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { mayResume } from '../../kernel/policy/resume-attempts.ts';
import type { PendingMessage } from '../../kernel/store/chat-store.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { WorkBudget } from '../people/spending.ts';

/** How a message a restart left unanswered is taken up at the next start, if it can be. */
export type Recovery =
  /** It was waiting (queued, or kept during a drain): it runs as it is. */
  | { kind: 'waiting'; prompt: string }
  /** Its turn was at work and the CLI named its session: the session continues, told why. */
  | { kind: 'resume'; prompt: string }
  /** Its turn was at work, in a session never named, and it had called no tool: it runs again. */
  | { kind: 'again'; prompt: string };

/** What becomes of a pending message at the start: none when it cannot be taken up (see mayResume): the chat is then told it was interrupted. */
export function recoveryOf(entry: PendingMessage, sessionKnown: boolean): Recovery | undefined {
  // Kept by a bridge that did not note what its turns did (no `by`): whether it ran is unknown.
  if (entry.by === undefined) return undefined;
  if (!entry.startedAt) return { kind: 'waiting', prompt: entry.text };
  if (!mayResume(entry, sessionKnown)) return undefined;
  return sessionKnown ? { kind: 'resume', prompt: resumePrompt(entry) } : { kind: 'again', prompt: entry.text };
}

/** The agent's side of a resume: the bridge restarted, what was at work, and to go on. */
export function resumePrompt(entry: PendingMessage): string {
  const parts = ['The bridge that runs you restarted while you were working on my last message, so your work on it stopped.'];
  if (entry.inFlight) parts.push(`The tool call in flight was: ${entry.inFlight} (it may not have finished; check before you rely on it).`);
  if (entry.steered?.length) {
    parts.push(`I had also sent these while you worked, which you may not have seen:\n${entry.steered.map((text) => `- ${text}`).join('\n')}`);
  }
  parts.push('Continue where you left off.');
  return parts.join('\n\n');
}

export interface RecoveryParts {
  out: Outbound;
  /** Whether interrupted work is resumed (BRIDGE_RESUME_INTERRUPTED); off, the chat is told instead. */
  resume: boolean;
  /** What each chat may still spend today: past it, its work is named, not taken up. */
  budget?: WorkBudget;
  startTurn: (chat: ChatSession, message: Pick<IncomingMessage, 'text' | 'messageId'>, by: string, pending: PendingMessage) => Promise<void>;
  /** The bridge is restarting again already: what is left stays pending, for the next start. */
  stopping: () => boolean;
  log: Log;
}

/**
 * At the start, the messages the last run of the bridge left unanswered, chat by chat, in
 * order: each turn at work resumed in its session (`↻ resuming`), each waiting message
 * run, before any message that came while the bridge was down. What cannot be taken up is
 * named to the chat in one message. Each resume is recorded before it starts.
 */
export async function recoverInterrupted(chats: readonly ChatSession[], parts: RecoveryParts): Promise<void> {
  for (const chat of chats) {
    const lost: PendingMessage[] = [];
    const refused = parts.budget?.refusal(chatKey(chat.address));
    for (const entry of chat.record.pending ?? []) {
      if (parts.stopping()) return leaveForNextStart(parts.log);
      const recovery = parts.resume && !refused ? recoveryOf(entry, chat.record.cliSessionId !== undefined) : undefined;
      if (!recovery) {
        lost.push(entry);
        continue;
      }
      if (recovery.kind !== 'waiting') {
        await chat.messages.updatePending(entry.id, { resumes: (entry.resumes ?? 0) + 1 });
        const notice = `↻ Resuming after the restart: “${truncate(entry.text.replace(/\s+/g, ' '), 80)}”`;
        await warnIfFails(parts.out.send(chat.address, plain(notice), { replyTo: entry.messageId }), parts.log, 'the resume notice', {
          chat: chatKey(chat.address),
        });
        // The notice may have waited out a flood limit, and a signal come meanwhile.
        if (parts.stopping()) return leaveForNextStart(parts.log);
      }
      parts.log.info({ chat: chatKey(chat.address), turn: entry.id, recovery: recovery.kind }, 'taking up a message the restart left');
      if (recovery.kind === 'resume') resumed(chat.record.cli);
      await parts.startTurn(chat, { text: recovery.prompt, messageId: entry.messageId }, entry.by ?? '', entry);
    }
    if (lost.length) await tellLost(chat, lost, refused, parts);
  }
}

/** A signal came while the start took up interrupted work: what is left stays pending, and nothing more starts. */
function leaveForNextStart(log: Log): void {
  log.info('restarting again before the interrupted work was all taken up: the rest waits for the next start');
}

async function tellLost(chat: ChatSession, lost: PendingMessage[], refused: string | undefined, parts: RecoveryParts): Promise<void> {
  // With the messages that went into each turn (steered, or answering the agent), which are lost with it.
  const line = (text: string, indent = '') => `${indent}• ${truncate(text.replace(/\s+/g, ' '), 80)}`;
  const list = lost.flatMap((p) => [line(p.text), ...(p.steered ?? []).map((text) => line(text, '   '))]).join('\n');
  const what = lost.length === 1 ? 'this message' : `these ${lost.length} messages`;
  const why = refused ? `\nThey were not taken up again: ${refused}` : '';
  const text = `⚠️ The bridge restarted before it finished ${what}:\n${list}${why}\nThe session continues: send again what you still need.`;
  try {
    await parts.out.send(chat.address, plain(text));
    for (const p of lost) await chat.messages.removePending(p.id);
  } catch (error) {
    parts.log.warn({ chat: chatKey(chat.address) }, `telling the chat about interrupted messages failed: ${(error as Error).message}`);
  }
}
