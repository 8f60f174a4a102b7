import type { Hook } from '../hooks/hooks-file.ts';
import type { HookStarted } from '../hooks/hook-routes.ts';
import type { Log } from '../log/logger.ts';
import { PERMISSION_MODES } from '../policy/permission-mode.ts';
import { chatKey, type Outbound } from '../ports/transport.ts';
import { truncate } from '../presentation/format/index.ts';
import { spawnedText, stopButton } from '../presentation/runs.ts';
import { bold, plain, rich } from '../rich/index.ts';
import type { Spawner } from '../subagents/spawner.ts';
import type { Bridge } from './bridge.ts';
import type { ChatSessions } from './chat-sessions.ts';

export interface HookWorkParts {
  bridge: Pick<Bridge, 'inject'>;
  spawner: Pick<Spawner, 'spawn'>;
  chats: Pick<ChatSessions, 'get'>;
  out: Outbound;
  log: Log;
}

/**
 * What a hook's accepted delivery does. A turn goes into its chat's main session (queued behind
 * a person's, never steering it) when the chat's own mode allows no more than the hook's: that
 * session then runs it in the chat's mode. When the chat's mode allows more (a chat in bypass,
 * a hook in safe), the same prompt runs as a subagent in the hook's mode instead, announced in
 * the chat: its untrusted values never enter a session that may do more than the hook allows.
 * A hook with `spawn` is a run with those options, bound by the stricter of the two modes.
 * Whatever refuses it (the budget, a full queue, an option) is said in the chat too.
 */
export function hookWork(parts: HookWorkParts): (hook: Hook, prompt: string) => Promise<HookStarted> {
  return async (hook, prompt) => {
    const from = `🪝 Webhook ${hook.name}`;
    const chat = parts.chats.get(hook.chat);
    const tell = (text: string) =>
      parts.out
        .send(hook.chat, plain(text))
        .catch((error: Error) => parts.log.warn({ chat: chatKey(hook.chat) }, `a webhook's notice failed: ${error.message}`));
    const chatMode = chat.effectivePermissionMode;
    const looser = PERMISSION_MODES.indexOf(chatMode) > PERMISSION_MODES.indexOf(hook.mode);
    if (hook.spawn === false && !looser) {
      // The chat is told first: a chat the bridge cannot write to takes no turn.
      const injected = await parts.bridge
        .inject(hook.chat, { text: prompt, from })
        .catch((error: Error) => ({ ok: false as const, reason: `the chat cannot be reached (${error.message})`, unreachable: true }));
      if (!injected.ok && 'unreachable' in injected) return { refused: injected.reason };
      if (injected.ok) return { turn: injected.turnId };
      await tell(`${from} did not run: ${injected.reason}`);
      return { refused: injected.reason };
    }
    const options = hook.spawn || {};
    const result = await parts.spawner
      .spawn(
        {
          task: prompt,
          label: options.label ?? `Webhook ${hook.name}`,
          ...(options.cli ? { cli: options.cli } : {}),
          ...(options.model ? { model: options.model } : {}),
          ...(options.agent ? { agent: options.agent } : {}),
          ...(options.worktree ? { worktree: true } : {}),
          ...(options.timeout ? { timeoutSeconds: options.timeout } : {}),
        },
        { address: hook.chat, requester: { kind: 'hook', hook: hook.name }, cwd: chat.record.workdir, cli: chat.record.cli, depth: 0, mode: hook.mode },
      )
      .catch((error: Error) => ({ ok: false as const, error: error.message }));
    if (!result.ok) {
      await tell(`${from} did not start its run: ${result.error}`);
      return { refused: result.error };
    }
    const why =
      hook.spawn === false
        ? `\n(As a subagent in ${hook.mode} mode: this chat's own mode, ${chatMode}, would let the webhook do more than its ${hook.mode}.)`
        : '';
    await parts.out
      .send(hook.chat, rich`${bold(from)}: ${truncate(prompt, 600)}${why}`)
      .then(() => parts.out.send(hook.chat, spawnedText(result.run, result.queuePosition), { buttons: [[stopButton(result.run)]] }))
      .catch((error: Error) => parts.log.warn({ chat: chatKey(hook.chat) }, `a webhook's notice failed: ${error.message}`));
    return { run: result.run.runId };
  };
}
