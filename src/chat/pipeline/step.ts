import type { MessageRef, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import type { Prompt } from '../session/attachments.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { CommandLine } from '../dispatch/command-line.ts';

/** What every step of a message's handling is given. */
export interface MessageContext {
  /** The message (a prompt: with the files already saved for it, when an album gathered them). */
  readonly message: Prompt;
  /** The command it is (`/name rest`), or null: words for the agent. */
  readonly command: CommandLine | null;
  /** The chat's session, read when a step first asks: a stranger's message makes none. */
  readonly chat: ChatSession;
  /** A reply to the message, in its chat. */
  readonly reply: (text: RichText, options?: SendOptions) => Promise<MessageRef>;
}

/** Runs the rest of the pipeline; resolves once it has run. */
export type Next = () => Promise<void>;

/**
 * One idea of how a message is handled (who may send it, whether it was handled already, …).
 * It ends the message by returning without calling `next`, or hands it on with `next()`, and
 * may act after what follows it has run. An error ends the message and reaches the caller.
 */
export interface Step<C> {
  readonly name: string;
  run(ctx: C, next: Next): Promise<void>;
}

export function step<C>(name: string, run: (ctx: C, next: Next) => Promise<void>): Step<C> {
  return { name, run };
}

/**
 * The steps as one, in order (grammY's middleware, smaller): each is given the next as `next`.
 * A step may hand on once: a second `next()` is a mistake in the step, and throws.
 */
export function pipelineOf<C>(steps: readonly Step<C>[]): (ctx: C) => Promise<void> {
  const from =
    (index: number) =>
    async (ctx: C): Promise<void> => {
      const current = steps[index];
      if (!current) return;
      let handedOn = false;
      await current.run(ctx, async () => {
        if (handedOn) throw new Error(`the ${current.name} step handed the message on twice`);
        handedOn = true;
        await from(index + 1)(ctx);
      });
    };
  return from(0);
}
