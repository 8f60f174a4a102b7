/**
 * How many times a turn or run a restart cut short is resumed: each attempt is recorded before
 * it starts, so a bridge that dies during every resume (a crash it causes) stops trying, and
 * names the work as interrupted instead.
 */
export const RESUME_ATTEMPTS = 3;

/**
 * Whether work a restart cut short (a chat's turn or a run) is taken up again: fewer than
 * RESUME_ATTEMPTS times so far, and either in the session its CLI named, or from its prompt
 * when it called no tool (running it again repeats nothing it did).
 */
export function mayResume(work: { resumes?: number; toolCalled?: boolean }, sessionKnown: boolean): boolean {
  return (work.resumes ?? 0) < RESUME_ATTEMPTS && (sessionKnown || !work.toolCalled);
}
