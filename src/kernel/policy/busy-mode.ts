/**
 * What a message sent while the chat's agent works does: `steer` writes it into the running
 * CLI (where it takes messages while it works), `queue` makes it the next turn, `interrupt`
 * stops the turn and makes it the next.
 */
export const BUSY_MODES = ['steer', 'queue', 'interrupt'] as const;
export type BusyMode = (typeof BUSY_MODES)[number];

export function isBusyMode(value: string): value is BusyMode {
  return (BUSY_MODES as readonly string[]).includes(value);
}

/** What the modes mean, as a chat is told. */
export const BUSY_MODE_MEANING: Record<BusyMode, string> = {
  steer: 'a message sent while the agent works goes into its running turn',
  queue: 'a message sent while the agent works waits, and runs as the next turn',
  interrupt: 'a message sent while the agent works stops its turn, and runs next',
};
