// Helpers on Reply values shared by the protocol writers.
import type { Reply, ReplyBlock } from './types.ts';

/** The reply's content in wire order: explicit blocks, else text first and tool calls after. */
export function replyBlocks(reply: Reply): ReplyBlock[] {
  if (reply.blocks) return reply.blocks;
  const blocks: ReplyBlock[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls ?? []) blocks.push({ type: 'tool', ...call });
  return blocks;
}

/** Rough token count so CLIs that print usage see non-zero, stable numbers. */
export function countTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Narrows an unknown JSON value to a plain object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Array#findLastIndex without needing the ES2023 lib. */
export function lastIndexWhere<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) {
    if (predicate(items[i] as T)) return i;
  }
  return -1;
}

/** The plain-object members of a JSON array, skipping anything else. */
export function records(value: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const item of asArray(value)) {
    const record = asRecord(item);
    if (record) out.push(record);
  }
  return out;
}
