/**
 * How many times a turn or run a restart cut short is resumed: each attempt is recorded before
 * it starts, so a bridge that dies during every resume (a crash it causes) stops trying, and
 * names the work as interrupted instead.
 */
export const RESUME_ATTEMPTS = 3;
