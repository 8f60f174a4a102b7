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
