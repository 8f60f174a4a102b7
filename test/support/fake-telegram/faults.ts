import { ApiError, defaultDescription, tooManyRequests } from './api-error.ts';

/**
 * A failure a test asks for: an error response (429 carries `retry_after`), or a connection
 * destroyed without any response. `afterProcessing` makes the drop happen after the method took
 * effect, the case where a retrying client duplicates a message. `hang` never answers and never
 * takes effect: the request stays in flight until the client goes away (a bridge killed mid-call).
 * For file downloads (method "download") a networkDrop sends half of the body, then cuts the
 * connection: the client sees a partial download.
 */
export type Fault =
  | { readonly code: number; readonly description?: string; readonly retryAfter?: number }
  | { readonly networkDrop: true; readonly afterProcessing?: boolean }
  | { readonly hang: true };

export interface FaultOptions {
  /** How many consecutive calls of the method fail; default 1. */
  readonly times?: number;
  /** Only calls for this chat fail (others in parallel tests go through). */
  readonly chatId?: number;
  /** Only calls whose `text` matches fail: one part of a split message, say; for downloads, the file_path. */
  readonly text?: RegExp;
  /** Every Nth matching call fails, from now until `clear` (a soak's steady faults); `times` is then ignored. */
  readonly every?: number;
}

interface Planned {
  readonly method: string;
  readonly fault: Fault;
  readonly chatId: number | undefined;
  readonly text: RegExp | undefined;
  remaining: number;
  readonly every: number | undefined;
  seen: number;
}

/** Faults queued per method (case-insensitive, "*" for any method), consumed in order. */
export class FaultPlan {
  private readonly planned: Planned[] = [];

  add(method: string, fault: Fault, options: FaultOptions = {}): void {
    const times = options.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error(`failNext: times must be a positive integer, got ${times}`);
    if (options.every !== undefined && (!Number.isInteger(options.every) || options.every < 1)) throw new Error(`failNext: every must be a positive integer`);
    this.planned.push({ method: method.toLowerCase(), fault, chatId: options.chatId, text: options.text, remaining: times, every: options.every, seen: 0 });
  }

  clear(): void {
    this.planned.length = 0;
  }

  take(method: string, chatId?: unknown, text?: unknown): Fault | undefined {
    const name = method.toLowerCase();
    const entry = this.planned.find(
      (p) =>
        (p.method === name || p.method === '*') &&
        (p.chatId === undefined || p.chatId === Number(chatId)) &&
        (p.text === undefined || (typeof text === 'string' && p.text.test(text))) &&
        (p.every === undefined || ++p.seen % p.every === 0),
    );
    if (!entry) return undefined;
    if (entry.every !== undefined) return entry.fault;
    entry.remaining--;
    if (entry.remaining === 0) this.planned.splice(this.planned.indexOf(entry), 1);
    return entry.fault;
  }
}

export function faultError(fault: { code: number; description?: string; retryAfter?: number }): ApiError {
  if (fault.code === 429) {
    const retryAfter = fault.retryAfter ?? 1;
    const base = tooManyRequests(retryAfter);
    return new ApiError(429, fault.description ?? base.description, base.parameters);
  }
  const parameters = fault.retryAfter === undefined ? undefined : { retry_after: fault.retryAfter };
  return new ApiError(fault.code, fault.description ?? defaultDescription(fault.code), parameters);
}
