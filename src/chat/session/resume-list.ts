import type { ChatRecord, SessionEntry } from '../../kernel/store/chat-store.ts';

/** Sessions a chat remembers for /resume. */
const SESSIONS_KEPT = 20;

/** A chat's sessions for /resume once a turn ended in `sessionId`: it is remembered (first prompt, turns, when), the newest few only. */
export function withTurn(record: ChatRecord, prompt: string, sessionId: string, answered: boolean): SessionEntry[] {
  const now = Date.now();
  const sessions = [...(record.sessions ?? [])];
  const index = sessions.findIndex((entry) => entry.id === sessionId);
  const known = index >= 0 ? sessions.splice(index, 1)[0]! : undefined;
  const entry: SessionEntry = known
    ? { ...known, turns: known.turns + 1, lastAt: now }
    : { id: sessionId, cli: record.cli, workdir: record.workdir, firstPrompt: prompt.slice(0, 200), startedAt: now, lastAt: now, turns: 1 };
  // Answered once, it is a conversation the CLI has.
  if (answered || (known && !known.unanswered)) delete entry.unanswered;
  else entry.unanswered = true;
  // What outside text the session holds goes with it into /resume's list.
  const outside = sessionId === record.cliSessionId ? record.outsideText : undefined;
  if (outside) entry.outsideText = outside;
  return [...sessions, entry].slice(-SESSIONS_KEPT);
}
