import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { toolSummary } from '../../work/presentation/tool-summary.ts';
import type { ChatSession } from '../session/chat-session.ts';

/**
 * A top-level tool call is noted in the chat's record once it has lasted this long: most calls
 * of a chatty turn end sooner, and noting each one's start and end rewrote the chat store twice
 * a call. A restart's drain notes the call at work at once.
 */
const NOTE_CALL_AFTER_MS = 1000;

/** What a running turn's record says of its tool calls, and the one at work. */
interface CallNotes {
  chat: ChatSession;
  current?: { id: string; text: string; timer?: NodeJS.Timeout };
  /** The id of the call the record names in flight, which an end must clear. */
  noted?: string;
}

/**
 * The tool calls of the chats' running turns, as their pending messages tell a restart: that a
 * turn called a tool, and the call at work once it has lasted.
 */
export class CallsInFlight {
  private readonly calls = new Map<string, CallNotes>();
  /** A restart is coming: each call at work is noted at once. */
  private restarting = false;

  /**
   * Notes in the turn's pending message that it called a tool (at once: such a turn is not
   * simply run again after a restart) and the call at work once it has lasted (a restart
   * resumes the turn knowing it), so a chatty turn's many quick calls cost no writes.
   */
  note(chat: ChatSession, turnId: string, event: AgentEvent): void {
    if (event.type === 'tool_start' && !event.parentId) {
      const notes = this.calls.get(turnId) ?? { chat };
      // Its first call: the record says a tool was called.
      if (!this.calls.has(turnId)) void chat.messages.updatePending(turnId, { toolCalled: true });
      this.calls.set(turnId, notes);
      clearTimeout(notes.current?.timer);
      notes.current = { id: event.id, text: truncate(`${event.name} ${toolSummary(event.name, event.input)}`.trim(), 200) };
      if (this.restarting) this.noteInFlight(turnId, notes);
      else notes.current.timer = setTimeout(() => this.noteInFlight(turnId, notes), NOTE_CALL_AFTER_MS).unref();
    } else if (event.type === 'tool_end') {
      const notes = this.calls.get(turnId);
      if (notes?.current?.id !== event.id) return;
      clearTimeout(notes.current.timer);
      notes.current = undefined;
      if (notes.noted === undefined) return;
      notes.noted = undefined;
      void chat.messages.updatePending(turnId, { inFlight: undefined });
    } else if (event.type === 'exit') this.forget(turnId);
  }

  forget(turnId: string): void {
    clearTimeout(this.calls.get(turnId)?.current?.timer);
    this.calls.delete(turnId);
  }

  /** The call at work goes into the record now (it has lasted, or a restart is coming). */
  private noteInFlight(turnId: string, notes: CallNotes): void {
    const current = notes.current;
    if (!current || notes.noted === current.id) return;
    clearTimeout(current.timer);
    notes.noted = current.id;
    void notes.chat.messages.updatePending(turnId, { inFlight: current.text });
  }

  /** A restart is coming: the calls at work go into the records now, and later ones as they start. */
  noteAllNow(): void {
    this.restarting = true;
    for (const [turnId, notes] of this.calls) this.noteInFlight(turnId, notes);
  }
}
