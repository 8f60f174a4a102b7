import { useEffect, useState } from 'preact/hooks';
import { get } from './api.ts';

/** A chat's CLI kept between turns, and where it runs. */
export interface LiveSession {
  chat: string;
  chatName: string;
  cli: string;
  /** The worker it runs on; none: the bridge's own host. */
  worker?: string;
  working: boolean;
}

/** How often the list is read again: a chat moves between workers when one stops. */
const REFRESH_MS = 5000;

/** The chats whose CLI is kept between turns, each with where it runs: the bridge's host or a worker. */
export function LiveSessions() {
  const [sessions, setSessions] = useState<LiveSession[]>([]);
  useEffect(() => {
    const read = () => void get<LiveSession[]>('/sessions').then(setSessions, () => {});
    read();
    const timer = setInterval(read, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  if (!sessions.length) return null;
  return (
    <details class="sessions" open>
      <summary>Chats' sessions ({sessions.length})</summary>
      <ul class="rows" data-testid="sessions">
        {sessions.map((session) => (
          <li key={session.chat} data-chat={session.chat}>
            <span class="chat-name">{session.chatName}</span>
            <span class="meta">
              {session.cli} · {session.working ? 'working' : 'idle'} · {session.worker ? `on worker ${session.worker}` : 'on the bridge'}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
