/**
 * Resolves when every part (one that can say whether it has work under way, and wait for it) is
 * idle at once. Parts hand work to each other (a finished run is announced, then handed back to
 * its chat's agent as a new turn), so each is waited for in turn until one pass finds them all
 * still.
 */
export async function untilStill(parts: readonly { isIdle(): boolean; idle(): Promise<void> }[]): Promise<void> {
  for (;;) {
    for (const part of parts) await part.idle();
    if (parts.every((part) => part.isIdle())) return;
  }
}
