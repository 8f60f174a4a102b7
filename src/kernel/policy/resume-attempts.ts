/**
 * How many times a turn or run a restart cut short is resumed: each attempt is recorded before
 * it starts, so a bridge that dies during every resume (a crash it causes) stops trying, and
 * names the work as interrupted instead.
 */
export const RESUME_ATTEMPTS = 3;

/** Work a restart may cut short (a chat's turn, as its pending message, or a run), as its record notes it. */
export interface Resumable {
  /** When it started: a restart found it at work, not waiting. */
  startedAt?: number;
  /** It called a tool (it may have changed something, so it is not simply run again). */
  toolCalled?: boolean;
  /** How many starts have resumed it (RESUME_ATTEMPTS at most, so a crash during a resume cannot loop). */
  resumes?: number;
}

/**
 * Whether work a restart cut short (a chat's turn or a run) is taken up again: fewer than
 * RESUME_ATTEMPTS times so far, and either in the session its CLI named, or from its prompt
 * when it called no tool (running it again repeats nothing it did).
 */
export function mayResume(work: Resumable, sessionKnown: boolean): boolean {
  return (work.resumes ?? 0) < RESUME_ATTEMPTS && (sessionKnown || !work.toolCalled);
}
