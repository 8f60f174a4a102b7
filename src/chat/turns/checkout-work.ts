import type { ChatSessions } from '../session/chat-sessions.ts';
import type { RunStore } from '../../work/subagents/run-store.ts';

/**
 * Why a merge into the checkout at `root` should wait: a chat's turn, or a run without a
 * worktree of its own, is working in it (it would find files changing under it, or commit
 * into the merge). Undefined when nothing is.
 */
export function checkoutBusy(root: string, chats: Pick<ChatSessions, 'active'>, runs: Pick<RunStore, 'all'>): string | undefined {
  const inside = (dir: string) => dir === root || dir.startsWith(`${root}/`);
  if (chats.active().some((chat) => chat.busy && inside(chat.record.workdir))) return `an agent's turn is working in ${root}`;
  if (runs.all().some((run) => run.status === 'running' && !run.worktree && inside(run.cwd))) return `a subagent run is working in ${root}`;
  return undefined;
}
