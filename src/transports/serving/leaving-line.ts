import type { ChatRef } from '../../kernel/ports/chat.ts';
import { TRANSPORTS } from '../../kernel/known-transports.ts';

/**
 * What someone leaving a bridge in their terminal reads the moment they press Ctrl-C: what the
 * drain waits for and how long, and that Ctrl-C again leaves now. Nothing at work: nothing to
 * say, as the bridge leaves at once. `here`: the transport at the keyboard, whose turn is
 * theirs.
 */
export function leavingLine(atWork: { turns: readonly ChatRef[]; runs: number }, drainMs: number, here: string): string | undefined {
  const waitsFor = [...turnsByTransport(atWork.turns, here), ...(atWork.runs ? [counted(atWork.runs, 'run')] : [])];
  if (!waitsFor.length) return undefined;
  const what = inWords(waitsFor);
  const goesOn = atWork.turns.length + atWork.runs === 1 ? 'it goes on' : 'they go on';
  if (drainMs <= 0) return `Leaving: stopping ${what}; ${goesOn} at the next start.`;
  return `Leaving: waiting up to ${Math.ceil(drainMs / 1000)} s for ${what} to finish, or ${goesOn} at the next start. Ctrl-C again to leave now.`;
}

function turnsByTransport(turns: readonly ChatRef[], here: string): string[] {
  const counts = new Map<string, number>();
  for (const { transport } of turns) counts.set(transport, (counts.get(transport) ?? 0) + 1);
  // Theirs first.
  return [...counts]
    .sort(([a], [b]) => Number(b === here) - Number(a === here))
    .map(([transport, count]) => {
      if (transport === here && count === 1) return 'your turn';
      return counted(count, `${TRANSPORTS.find((known) => known.id === transport)?.turns ?? transport} turn`);
    });
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** "a", "a and b", "a, b and c". */
function inWords(parts: string[]): string {
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}
