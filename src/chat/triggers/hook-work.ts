import type { Hook } from '../../services/hooks/hooks-file.ts';
import type { HookStarted } from '../../services/hooks/hook-routes.ts';
import { stricter } from '../../kernel/policy/permission-mode.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { bold, rich } from '../../kernel/rich/index.ts';
import { Triggered, type TriggeredParts } from './triggered.ts';

/**
 * What a hook's accepted delivery does. A turn goes into its chat's main session (queued behind
 * a person's, never steering it) when the chat's own mode allows no more than the hook's: that
 * session then runs it in the chat's mode. When the chat's mode allows more (a chat in bypass,
 * a hook in safe), the same prompt runs as a subagent in the hook's mode instead, announced in
 * the chat: its untrusted values never enter a session that may do more than the hook allows.
 * A session they entered remembers it (OutsideText), and starts anew if the chat is loosened.
 * A hook with `spawn` is a run with those options, bound by the stricter of the two modes.
 */
export function hookWork(
  parts: TriggeredParts & {
    /** Why work on this CLI and model cannot be held to a budget, or undefined (see unpricedReason). */
    unpriced?: (cli: string, model: string | undefined) => string | undefined;
  },
): (hook: Hook, prompt: string) => Promise<HookStarted> {
  const triggered = new Triggered(parts);
  return async (hook, prompt) => {
    const from = `🪝 Webhook ${hook.name}`;
    const chat = parts.bot.chats.get(hook.chat);
    const chatMode = chat.effectivePermissionMode;
    const looser = stricter(chatMode, hook.mode) !== chatMode;
    if (hook.spawn === false && !looser) {
      // A turn held to the hook's budget must be priced as it goes, on the chat's CLI and model.
      const unpriced = hook.budgetUsd === undefined ? undefined : parts.unpriced?.(chat.record.cli, chat.record.model);
      if (unpriced) {
        const reason = `its budget cannot be held here: ${unpriced}`;
        await triggered.tell(hook.chat, `${from} did not run: ${reason}`);
        return { refused: reason };
      }
      // Its text comes from outside the chat's people: the session it enters keeps that.
      const outside = { from: `webhook ${hook.name}`, ceiling: hook.mode };
      const turn = await triggered.turn(hook.chat, { from, text: prompt, outside, budgetUsd: hook.budgetUsd });
      return turn.ok ? { turn: turn.turnId } : { refused: turn.reason };
    }
    const { timeout, ...options } = hook.spawn || {};
    const why =
      hook.spawn === false
        ? `\n(As a subagent in ${hook.mode} mode: this chat's own mode, ${chatMode}, would let the webhook do more than its ${hook.mode}.)`
        : '';
    const run = await triggered.run(
      hook.chat,
      from,
      { ...options, task: prompt, label: options.label ?? `Webhook ${hook.name}`, timeoutSeconds: timeout, budgetUsd: hook.budgetUsd },
      { requester: { kind: 'hook', hook: hook.name }, mode: hook.mode },
      rich`${bold(from)}: ${truncate(prompt, 600)}${why}`,
    );
    return run.ok ? { run: run.runId } : { refused: run.reason };
  };
}
