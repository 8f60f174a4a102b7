/**
 * The values labels may take: each from a small set fixed by the code or the operator's
 * configuration (the CLIs of adapters/, the models of the price table), never a message's
 * text, a path, a chat, a person or a secret.
 */

/** How a turn or run ended. */
export const OUTCOMES = ['completed', 'failed', 'stopped', 'timed_out', 'interrupted'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export function outcomeOf(status: string): Outcome | 'other' {
  return (OUTCOMES as readonly string[]).includes(status) ? (status as Outcome) : 'other';
}

/** A model a label may name: one the price table knows, as the table names it; any other is `other`. */
export const OTHER_MODEL = 'other';

/** `2xx`, `4xx`…: an HTTP status as its class. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}
