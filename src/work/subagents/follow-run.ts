import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { isActive, type SubagentRunRecord } from './record.ts';
import { readRotated } from './run-log.ts';
import type { Subagents } from './subagents.ts';

/** How often a follower looks for what is new: a run's log is written every 100 ms. */
const POLL_MS = 250;

export type RunFollowed = { event: AgentEvent; sequence: number } | { ended: SubagentRunRecord; sequence: number };

/**
 * A run's events from its log, decoded as /subagents log decodes them, each numbered by its
 * place (the same numbers on every follow, so a client that lost its stream asks again from
 * the last number it saw plus one), and last how it ended. Stops when `gone()` says the reader left.
 */
export async function* followRun(subagents: Subagents, run: SubagentRunRecord, fromSequence: number, gone: () => boolean): AsyncGenerator<RunFollowed> {
  const decode = subagents.lineDecoder(run);
  let lines = 0;
  let sequence = 0;
  while (!gone()) {
    // Whether it had ended is read before its log: everything it wrote is in the log by then.
    const current = subagents.registry.get(run.runId) ?? run;
    const over = !isActive(current);
    const all = await readRotated(run.logFile);
    for (const raw of all.slice(lines)) {
      for (const event of decode(raw)) {
        // A model call's usage is the run's cost, not an event of its own: numbers stay those clients have always seen.
        if (event.type === 'usage') continue;
        if (sequence >= fromSequence) yield { event, sequence };
        sequence++;
      }
    }
    lines = all.length;
    if (over) {
      yield { ended: current, sequence };
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
