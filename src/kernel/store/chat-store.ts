import { join } from 'node:path';
import type { Low } from 'lowdb';
import type { PermissionMode } from '../policy/permission-mode.ts';
import type { BusyMode } from '../policy/busy-mode.ts';
import type { Resumable } from '../policy/resume-attempts.ts';
import { openJsonStore } from './json-store.ts';
import { wholeChatKey, type Attachment, type ChatRef, type IncomingMessage } from '../ports/chat.ts';
import { DATA_FORMAT } from './data-format.ts';
import type { QuotaLimit } from '../protocols/events.ts';
import { own, putOwn } from './own.ts';

/** What a chat (or forum topic) remembers across restarts. */
export interface ChatRecord {
  /** `chatKey(chat)`. */
  key: string;
  chat: ChatRef;
  /** The chat's name as its people know it, from its latest message (the dashboard shows it). */
  title?: string;
  cli: string;
  model?: string;
  /** Chosen with /permissions; absent, the bridge's BRIDGE_PERMISSION_MODE. */
  permissionMode?: PermissionMode;
  /** The CLI's own session id: the next turn resumes it. */
  cliSessionId?: string;
  workdir: string;
  /** Messages accepted but not yet answered: after a crash, the chat is told which were lost. */
  pending?: PendingMessage[];
  /**
   * The newest messages handled to the end (their turn answered, their command run, steered
   * into a turn, their files kept): a message the transport gives again after a restart is not
   * handled twice. With `pending`, every message the bridge has taken.
   */
  taken?: string[];
  /**
   * Commands begun and not yet finished (`/spawn …`), noted before they act: a restart in
   * between carries out once each whose work is not there (found by its message), and names
   * the rest to the chat, saying what is known of them (see `bridge/command-replay.ts`).
   */
  commandsCut?: BegunCommand[];
  /** Every answer ends with the terminal command that continues the session (`/handoff on`). */
  showHandoff?: boolean;
  /** Chosen with /busy; absent, the bridge's BRIDGE_BUSY_MODE. */
  busyMode?: BusyMode;
  /** The next turns run in plan mode (/plan), until a plan is approved. */
  planning?: boolean;
  /** Files sent without words, by who sent them: they go to the agent with that person's next message. */
  waitingFiles?: Record<string, WaitingFile[]>;
  /**
   * The parts of albums still gathering (an album arrives as one message per file, and makes
   * one prompt once no part came for a second), by album id: a restart in that second takes
   * them up at the start.
   */
  gatheringAlbums?: Record<string, IncomingMessage[]>;
  /** The chat's recent sessions, oldest first, for /resume. */
  sessions?: SessionEntry[];
  /** Text from outside the chat's people is in the current session (see OutsideText). */
  outsideText?: OutsideText;
  /** Hosts its sandbox may reach besides the model API and BRIDGE_SANDBOX_ALLOW (`/net allow`), as written. */
  netAllow?: string[];
  /** Chosen with /fallback: the CLIs its turns go on in when a limit stops theirs (`off`: none); absent, BRIDGE_FALLBACK. */
  fallback?: string[] | 'off';
  /** CLIs a quota or rate limit stopped here, and when each may be tried again (epoch ms). */
  limited?: Record<string, { kind: QuotaLimit['kind']; until: number }>;
  /** The CLI a limit moved the session away from, and its session: the next turn after its reset goes back to it. */
  home?: { cli: string; sessionId?: string };
  /** What the bridge saw of the current CLI's work since it took the session: the brief for a CLI that takes over. */
  work?: WorkNotes;
  updatedAt: number;
}

/** A command begun and not yet finished, as kept across a restart. */
export interface BegunCommand {
  messageId?: string;
  text: string;
  /** The whole message, for a command that can be carried out again after a restart (one that says whether its work is there). */
  message?: IncomingMessage;
  /** Files it had taken from those waiting for its sender's words: given back to it when it is carried out again. */
  files?: WaitingFile[];
  /** How many starts carried it out again (RESUME_ATTEMPTS at most, so a crash it causes cannot loop). */
  replays?: number;
}

/**
 * What the bridge saw of one CLI's work in a session (its stint, until another CLI takes
 * over), from the events alone, never asking the model: the task it was given, its last
 * answers, the files its tools touched. The brief for the CLI that goes on is written from it.
 */
export interface WorkNotes {
  /** The CLI doing the work. */
  cli: string;
  /** The first message of its stint. */
  task?: string;
  /** Its last few answers, oldest first: the message and the start of its answer. */
  answers: { prompt: string; answer: string }[];
  /** Files its tools read or changed, newest last. */
  files: string[];
}

/** Where text from outside the chat's people came from (`webhook ci`), and the most its sender may make the agent do. */
export interface OutsideSource {
  from: string;
  ceiling: PermissionMode;
}

/**
 * What a session that took text from outside the chat's people (a webhook's delivery) carries
 * for good: the most the strictest such sender may do, and who sent it (the newest few). The
 * session never runs in a mode that allows more: loosening the chat past it starts a new one.
 */
export interface OutsideText {
  ceiling: PermissionMode;
  from: string[];
}

/** A file saved in the chat's inbox, waiting for words (the inbox's SavedFile, as kept): what its attachment said, where it is, its size. */
export type WaitingFile = Pick<Attachment, 'kind' | 'recorded' | 'mimeType' | 'durationSeconds'> & { path: string; bytes: number };

/** A conversation a chat had: enough to recognise it in /resume and to continue it. */
export interface SessionEntry {
  id: string;
  cli: string;
  workdir: string;
  firstPrompt: string;
  startedAt: number;
  lastAt: number;
  turns: number;
  /** None of its turns has been answered yet (its CLI failed before its model did, say): there is no conversation to continue in a terminal. */
  unanswered?: true;
  /** Text from outside the chat's people went into it: /resume does not continue it in a mode that allows more. */
  outsideText?: OutsideText;
}

/**
 * A message the chat's agent has not answered yet: waiting in the queue, kept during a drain,
 * or its turn at work. What its turn did so far is noted as it goes, so a turn a restart cut
 * short can be resumed (or, where it cannot be, named) at the next start.
 */
export interface PendingMessage extends Resumable {
  id: string;
  text: string;
  messageId?: string;
  /** Whose message it is (a user id; empty: the bridge's own, such as a run's result). */
  by?: string;
  /** The tool call at work (its name and the start of its input), while one is. */
  inFlight?: string;
  /** Messages steered into its turn, which the CLI may not have taken. */
  steered?: string[];
  /**
   * Its turn was stopped by the bridge's own shutdown, which read how it ended: the next start
   * resumes it anew, never follows it again where it ran (on a worker, that ending is all there is).
   */
  stoppedByShutdown?: boolean;
  /** Its text came from outside the chat's people: the session it enters is marked so (OutsideText). */
  outside?: OutsideSource;
}

interface ChatData {
  /** The data format it was written in (store/data-format.ts). */
  version: number;
  chats: Record<string, ChatRecord>;
}

/** Chat records in `<dataDir>/chats.json`. Small: one record per chat, written on change. */
export class ChatStore {
  private constructor(private readonly db: Low<ChatData>) {}

  static async open(dataDir: string): Promise<ChatStore> {
    return new ChatStore(await openJsonStore<ChatData>(join(dataDir, 'chats.json'), { version: DATA_FORMAT, chats: {} }));
  }

  get(key: string): ChatRecord | undefined {
    return own(this.db.data.chats, key);
  }

  /** Whether the chat (`wholeChatKey`, any of its threads) has a record: someone allowed has talked to the bot there. */
  knows(chat: string): boolean {
    return this.all().some((record) => wholeChatKey(record.chat) === chat);
  }

  all(): ChatRecord[] {
    return Object.values(this.db.data.chats);
  }

  async put(record: ChatRecord): Promise<void> {
    putOwn(this.db.data.chats, record.key, { ...record, updatedAt: Date.now() });
    await this.db.write();
  }
}
