import { tooManyRequests, type ApiError } from './api-error.ts';

/** Methods that put something in a chat, counted against its limit as Telegram counts them. */
const COUNTED = new Set(['sendmessage', 'editmessagetext', 'editmessagereplymarkup', 'editmessagemedia', 'senddocument', 'sendphoto', 'sendchataction']);

/**
 * Telegram's per-chat flood limits, when a test asks for them: one call a second in a private
 * chat, twenty a minute in a group. A call over the limit gets a 429 with the `retry_after`
 * that would let it through, and is not counted.
 */
export class FloodLimits {
  private readonly sent = new Map<number, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The 429 for this call, or undefined when the chat may take it (it is then counted). */
  check(method: string, chatId: unknown): ApiError | undefined {
    const id = Number(chatId);
    if (!COUNTED.has(method.toLowerCase()) || !Number.isInteger(id)) return undefined;
    const { max, windowMs } = id > 0 ? { max: 1, windowMs: 1000 } : { max: 20, windowMs: 60_000 };
    const now = this.now();
    const recent = (this.sent.get(id) ?? []).filter((at) => now - at < windowMs);
    if (recent.length >= max) {
      this.sent.set(id, recent);
      return tooManyRequests(Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000)));
    }
    recent.push(now);
    this.sent.set(id, recent);
    return undefined;
  }
}
