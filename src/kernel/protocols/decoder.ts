import type { AgentEvent } from './events.ts';

/**
 * A protocol decoder: a pure function from (state, one parsed JSONL line) to the next state
 * and the events that line means. State is only what a dialect needs to remember across
 * lines (codex reports its final text before the line that ends the turn).
 *
 * Returning `null` says "this line is not part of the dialect I know": the engine keeps it
 * as a raw log line. Returning no events says "understood, nothing to show".
 */
export interface Decoder<S = unknown> {
  readonly protocol: string;
  /** What its output says of cost; none: nothing (the bridge cannot price its work). */
  readonly metering?: Metering;
  /** Its tools' names in Claude Code's (`shell` → `Bash`), which approval rules are written in: a rule binds on every CLI. */
  readonly toolNames?: Readonly<Record<string, string>>;
  initial(): S;
  step(state: S, line: unknown): DecodeStep<S> | null;
}

/** What a dialect's output says of cost: the CLI's own price (at a turn's end), tokens as it works, or nothing. */
export interface Metering {
  /** The CLI prices its turns itself (Claude Code's `total_cost_usd`). */
  reportsCost?: boolean;
  /** The CLI reports tokens, which the price table turns into dollars. */
  reportsUsage?: boolean;
  /** Its input tokens include the cached ones (OpenAI's way), which are priced apart. */
  inputIncludesCache?: boolean;
}

export interface DecodeStep<S> {
  state: S;
  events: AgentEvent[];
}

/** Tool output previews are for progress lines: keep them short so a 5 MB tool result costs nothing downstream. */
export const PREVIEW_CHARS = 300;

export function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** Narrowing helpers for untrusted JSON: the CLIs add and reorder fields between releases. */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` as JSON, or undefined where it is none. */
export function jsonOf<T = unknown>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Drops undefined fields so events compare exactly and serialise small: into a new object,
 * since deleting keys would turn every event into a slow dictionary-mode object.
 */
export function compact<T extends object>(event: T): T {
  const kept = {} as T;
  for (const key in event) if (event[key] !== undefined) kept[key] = event[key];
  return kept;
}
