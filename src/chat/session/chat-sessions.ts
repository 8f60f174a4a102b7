import { existsSync } from 'node:fs';
import { chatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import { mayWorkIn } from '../../engine/projects/directories.ts';
import { ChatSession, type ChatParts } from './chat-session.ts';

/** Every chat's session, created on first use from its persisted record (or the defaults). */
export class ChatSessions {
  private readonly sessions = new Map<string, ChatSession>();

  constructor(private readonly parts: ChatParts) {}

  get(address: ChatRef): ChatSession {
    const key = chatKey(address);
    let session = this.sessions.get(key);
    if (!session) {
      const record = this.parts.store.get(key) ?? {
        key,
        chat: address,
        cli: this.parts.config.defaultCli,
        workdir: this.parts.config.workdir,
        updatedAt: Date.now(),
      };
      // A CLI removed from adapters/ since: fall back to the default rather than fail every turn.
      if (!this.parts.config.adapters.has(record.cli)) record.cli = this.parts.config.defaultCli;
      // A directory gone, no longer within the roots the operator allows, or the bridge's own: start where chats start.
      if (!existsSync(record.workdir) || (record.workdir !== this.parts.config.workdir && !mayWorkIn(record.workdir, this.parts.config))) {
        record.workdir = this.parts.config.workdir;
        delete record.cliSessionId;
      }
      session = new ChatSession(address, record, this.parts);
      this.sessions.set(key, session);
    }
    return session;
  }

  active(): ChatSession[] {
    return [...this.sessions.values()];
  }

  /** Chats that had messages in flight when the bridge last stopped (a turn, a command, an album gathering). */
  interrupted(): ChatSession[] {
    return this.parts.store
      .all()
      .filter((record) => record.pending?.length || record.commandsCut?.length || Object.keys(record.gatheringAlbums ?? {}).length)
      .map((record) => this.get(record.chat));
  }
}
