import { Hono } from 'hono';
import { discardedText, mergedText, refusedText } from '../../../work/presentation/review.ts';
import { plainText } from '../../../kernel/rich/index.ts';
import type { RunReview } from '../../../work/subagents/run-review.ts';
import type { WebEnv } from '../auth/guard.ts';
import type { WebLogin } from '../auth/web-logins.ts';
import { visibleRun, type Visible } from './visible.ts';

export interface ReviewSources extends Visible {
  review: Pick<RunReview, 'diff' | 'merge' | 'discard' | 'mayChange'>;
  /** An admin (BRIDGE_ADMINS): of a run they may see, any run's merge or discard is theirs too. */
  isAdmin: (identity: string) => boolean;
}

/** The diff of a run's worktree, and merging or discarding it: the same service, rules and audit as the chat's buttons. */
export function reviewRoutes(sources: ReviewSources): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const reviewer = (session: WebLogin) => {
    const [transport = '', userId = ''] = session.identity.split(/:(.*)/s);
    return {
      transport,
      userId,
      ...(session.name ? { name: session.name } : {}),
      owner: sources.access.isOwner(session.identity),
      admin: sources.isAdmin(session.identity),
      via: 'dashboard',
    };
  };

  app.get('/:id/diff', async (c) => {
    const run = await visibleRun(c, sources);
    if (!run) return c.json({ error: 'No such run.' }, 404);
    const diff = await sources.review.diff(run);
    if (!diff.ok) return c.json({ error: plainText(refusedText(diff)) }, 409);
    const { run: _run, ...shown } = diff;
    return c.json({ ...shown, mayChange: sources.review.mayChange(run, reviewer(c.get('session'))) });
  });

  app.post('/:id/merge', async (c) => {
    const run = await visibleRun(c, sources);
    if (!run) return c.json({ error: 'No such run.' }, 404);
    const merged = await sources.review.merge(run, reviewer(c.get('session')));
    return merged.ok ? c.json({ text: plainText(mergedText(merged)) }) : c.json({ error: plainText(refusedText(merged)), files: merged.files ?? [] }, 409);
  });

  app.post('/:id/discard', async (c) => {
    const run = await visibleRun(c, sources);
    if (!run) return c.json({ error: 'No such run.' }, 404);
    const body = await c.req.json().catch(() => ({}));
    const confirmed = typeof body?.confirmedCommits === 'number' ? { confirmedCommits: body.confirmedCommits } : {};
    const discarded = await sources.review.discard(run, reviewer(c.get('session')), confirmed);
    if (discarded.ok) return c.json({ text: plainText(discardedText(discarded)) });
    return c.json({ error: plainText(refusedText(discarded)), unmerged: discarded.unmerged }, 409);
  });
  return app;
}
