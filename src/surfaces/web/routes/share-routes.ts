import { Hono } from 'hono';
import { chatOfKey } from '../../../kernel/ports/chat.ts';
import type { Conversation } from '../../../work/transcripts/conversation.ts';
import type { Conversations } from '../../../work/transcripts/conversations.ts';
import type { ChatStore } from '../../../kernel/store/chat-store.ts';
import type { WebEnv } from '../auth/guard.ts';
import type { ShareLinks } from '../shares/share-links.ts';
import { sharedView } from '../views/shared-view.ts';
import { person, visibleRun, type Visible } from './visible.ts';

/** What the share links' pages are made from. */
export interface ShareSources extends Visible {
  shares: Pick<ShareLinks, 'find' | 'create'>;
  conversations: Pick<Conversations, 'session' | 'run'>;
  /** The chats' records: the CLI a chat talks to now is what a session names when its transcript does not. */
  store: Pick<ChatStore, 'get'>;
}

const GONE = 'This link does not work: it has expired, was revoked, or was never made. Ask the chat for a new one (/export).';
const NOT_YOURS =
  'This conversation is shared with the people of its chat only, and you are not one of them. Someone of that chat can send it to you with /export.';

/**
 * Share links, behind the session guard like every API call: the conversation a link names,
 * read-only, for a person of its chat (anyone else: 403, and nothing of it); and a new link to
 * a run the person may see (the dashboard's run page offers one).
 */
export function shareRoutes(sources: ShareSources): Hono<WebEnv> {
  const app = new Hono<WebEnv>();

  // The token comes in the body: a path lands in logs (a failed request's line), a body does not.
  app.post('/open', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { token?: unknown };
    const share = typeof body.token === 'string' ? sources.shares.find(body.token) : undefined;
    const chat = share && chatOfKey(share.target.chat);
    if (!share || !chat) return c.json({ error: GONE }, 404);
    if (!(await sources.access.sees(person(c), chat))) return c.json({ error: NOT_YOURS }, 403);
    let conversation: Conversation | undefined;
    if (share.target.kind === 'session') {
      conversation = await sources.conversations.session(share.target.chat, share.target.session, sources.store.get(share.target.chat)?.cli ?? 'the CLI');
    } else {
      const run = await sources.runs.find(share.target.runId);
      conversation = run && run.requesterKey === share.target.chat ? await sources.conversations.run(run) : undefined;
    }
    if (!conversation) return c.json({ error: 'What this link shows is no longer kept by the bridge.' }, 404);
    return c.json({ ...sharedView(conversation), expiresAt: share.expiresAt });
  });

  // A link to a run, from its page: the run must be one the person sees, as its page is.
  app.post('/', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { run?: unknown };
    if (typeof body.run !== 'string') return c.json({ error: 'Say which run: {"run": "<id>"}.' }, 400);
    const run = await visibleRun(c, sources, body.run);
    if (!run) return c.json({ error: 'No such run.' }, 404);
    const { token, share } = await sources.shares.create({ kind: 'run', chat: run.requesterKey, runId: run.runId }, person(c));
    return c.json({ path: `/share#${token}`, expiresAt: share.expiresAt });
  });
  return app;
}
