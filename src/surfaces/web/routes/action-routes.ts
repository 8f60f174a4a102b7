import { Hono } from 'hono';
import { orchestrationName } from '../../../work/orchestration/orchestration-record.ts';
import type { Orchestrator } from '../../../work/orchestration/orchestrator.ts';
import { stoppingOrchestrationText } from '../../../work/presentation/orchestration.ts';
import { stoppingRunText } from '../../../work/presentation/runs.ts';
import { plainText } from '../../../kernel/rich/index.ts';
import type { SubagentRegistry } from '../../../work/subagents/registry.ts';
import type { WebEnv } from '../auth/guard.ts';
import { visibleOrchestration, visibleRun, type Visible } from './visible.ts';

/** Who may: the chat's own people, as in the chat (everyone, for an owner). */
export interface ActionSources extends Visible {
  registry: Pick<SubagentRegistry, 'stop'>;
  orchestrator: Pick<Orchestrator, 'stop'>;
}

/**
 * What the chat's commands do, from the dashboard: stopping a run (as /subagents stop and a
 * run's Stop button) or a whole plan (as /orchestrations stop), through the same calls, so the
 * audit trail records it and the chat gets its one announcement as it would from the chat.
 */
export function actionRoutes(sources: ActionSources): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const by = (session: { identity: string; name?: string }) => session.name ?? session.identity;

  app.post('/runs/:id/stop', async (c) => {
    const run = await visibleRun(c, sources);
    if (!run) return c.json({ error: 'No such run.' }, 404);
    if (!(await sources.registry.stop(run.runId, by(c.get('session'))))) return c.json({ error: `#${run.number} has already ended (${run.status}).` }, 409);
    return c.json({ text: plainText(stoppingRunText(run)) });
  });

  app.post('/orchestrations/:id/stop', async (c) => {
    const record = await visibleOrchestration(c, sources);
    if (!record) return c.json({ error: 'No such orchestration.' }, 404);
    if (!(await sources.orchestrator.stop(record.id, by(c.get('session')))))
      return c.json({ error: `Orchestration #${record.number} ${orchestrationName(record)} has already ended (${record.status}).` }, 409);
    return c.json({ text: plainText(stoppingOrchestrationText(record)) });
  });
  return app;
}
