import type { Log } from '../../kernel/log/logger.ts';
import { buttonKindOf, type ButtonHandler, type ButtonKind } from '../../kernel/ports/buttons.ts';
import { chatKey, type ButtonAnswer, type ButtonPress } from '../../kernel/ports/chat.ts';
import type { Allowlist } from '../people/allowlist.ts';
import type { PeopleSeen } from '../../work/access/people-seen.ts';
import { runWithDeadline } from './deadline.ts';

/** What a press of a button the bridge does not (or no longer) know is answered. */
export const GONE = 'This button no longer does anything.';

/**
 * Where a button press goes: to the handler of its kind, with its payload decoded, for the
 * allowed people only, and within the commands' deadline.
 */
export class ButtonPresses {
  /** By kind, each decoding its own payload. */
  private readonly handlers = new Map<string, ButtonHandler<string>>();

  constructor(
    private readonly parts: { allowlist: Pick<Allowlist, 'isAllowed' | 'writtenId'>; seen: Pick<PeopleSeen, 'saw'>; timeoutSeconds: number; log: Log },
  ) {}

  /** Handles the presses of one kind of button, with its payload decoded (a press whose payload does not decode is answered here). */
  on<P>(kind: ButtonKind<P>, handler: ButtonHandler<P>): void {
    this.handlers.set(kind.kind, async (press, raw) => {
      const payload = kind.decode(raw);
      return payload === undefined ? { text: GONE } : handler(press, payload);
    });
  }

  async press(press: ButtonPress): Promise<ButtonAnswer> {
    const { allowlist, timeoutSeconds: seconds, log } = this.parts;
    this.parts.seen.saw(press.address, press.user);
    if (!allowlist.isAllowed(press.address, press.user))
      return { text: `⛔ Not allowed. Your user id is ${allowlist.writtenId(press.address, press.user)}.`, alert: true };
    const { kind, raw } = buttonKindOf(press.data);
    const handler = this.handlers.get(kind);
    if (!handler) return { text: GONE };
    // A button is handled in its chat's turn like a message: it too must let go at the commands' deadline.
    let answer: ButtonAnswer | undefined;
    const ended = await runWithDeadline(
      async () => void (answer = await handler(press, raw)),
      seconds * 1000,
      (error) => log.warn({ err: error, chat: chatKey(press.address) }, `a ${kind} button failed after its deadline`),
    );
    if (ended === 'done' && answer) return answer;
    log.warn({ chat: chatKey(press.address) }, `a ${kind} button passed its ${seconds} s deadline`);
    return { text: `⌛ That took longer than ${seconds} s and was stopped.`, alert: true };
  }
}
