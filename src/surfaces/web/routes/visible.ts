import type { Context } from 'hono';
import { chatOfKey } from '../../../kernel/ports/chat.ts';
import type { ChatAccess } from '../../../work/access/chat-access.ts';
import type { OrchestrationStore } from '../../../work/orchestration/orchestration-store.ts';
import type { RunStore } from '../../../work/subagents/run-store.ts';
import type { WebEnv } from '../auth/guard.ts';

/** Where the routes find a run or a plan, and who sees which chats: the chats they are in (every chat, for an owner: BRIDGE_OWNERS, by default the first of BRIDGE_ALLOWED_USERS). */
export interface Visible {
  runs: Pick<RunStore, 'find'>;
  orchestrations: Pick<OrchestrationStore, 'get'>;
  access: Pick<ChatAccess, 'sees' | 'isOwner'>;
}

/** The person asking, by their session. */
export const person = (c: Context<WebEnv>) => c.get('session').identity;

// A run or plan of a chat the person is not in is "no such", so its ids cannot be probed.

/** The run `id` (by default the path's `:id`), if the person sees its chat. */
export async function visibleRun(c: Context<WebEnv>, sources: Visible, id = c.req.param('id') ?? '') {
  const run = await sources.runs.find(id);
  return run && (await sources.access.sees(person(c), run.chat)) ? run : undefined;
}

/** The orchestration of the path's `:id`, if the person sees its chat. */
export async function visibleOrchestration(c: Context<WebEnv>, sources: Visible) {
  const record = sources.orchestrations.get(c.req.param('id') ?? '');
  const chat = record && chatOfKey(record.chatKey);
  return chat && (await sources.access.sees(person(c), chat)) ? record : undefined;
}
