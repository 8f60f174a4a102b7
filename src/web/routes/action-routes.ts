import { Hono } from 'hono';
import { orchestrationName, type OrchestrationRecord } from '../../orchestration/orchestration-record.ts';
import type { Orchestrator } from '../../orchestration/orchestrator.ts';
import { stoppingOrchestrationText } from '../../presentation/orchestration.ts';
import { stoppingRunText } from '../../presentation/runs.ts';
import { plainText } from '../../rich/index.ts';
import type { SubagentRunRecord } from '../../subagents/record.ts';
import type { SubagentRegistry } from '../../subagents/registry.ts';
import { mayActOnChat, type ChatAccess } from '../auth/chat-access.ts';
import type { WebEnv } from '../auth/guard.ts';

export interface ActionSources {
  registry: Pick<SubagentRegistry, 'stop'>;
  orchestrator: Pick<Orchestrator, 'stop' | 'get'>;
  findRun: (id: string) => Promise<SubagentRunRecord | undefined>;
  access: ChatAccess;
}

const REFUSED = "You may not act on this chat's runs.";

/**
 * What the chat's commands do, from the dashboard: stopping a run (as /subagents stop and a
 * run's Stop button) or a whole plan (as /orchestrations stop), through the same calls, so the
 * audit trail records it and the chat gets its one announcement as it would from the chat.
 */
export function actionRoutes(sources: ActionSources): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const by = (session: { identity: string; name?: string }) => session.name ?? session.identity;

  app.post('/runs/:id/stop', async (c) => {
    const run = await sources.findRun(c.req.param('id'));
    if (!run) return c.json({ error: 'No such run.' }, 404);
    const session = c.get('session');
    if (!mayActOnChat(sources.access, session.identity, run.requesterKey)) return c.json({ error: REFUSED }, 403);
    if (!(await sources.registry.stop(run.runId, by(session)))) return c.json({ error: `#${run.number} has already ended (${run.status}).` }, 409);
    return c.json({ text: plainText(stoppingRunText(run)) });
  });

  app.post('/orchestrations/:id/stop', async (c) => {
    const record: OrchestrationRecord | undefined = sources.orchestrator.get(c.req.param('id'));
    if (!record) return c.json({ error: 'No such orchestration.' }, 404);
    const session = c.get('session');
    if (!mayActOnChat(sources.access, session.identity, record.chatKey)) return c.json({ error: REFUSED }, 403);
    if (!(await sources.orchestrator.stop(record.id, by(session))))
      return c.json({ error: `Orchestration #${record.number} ${orchestrationName(record)} has already ended (${record.status}).` }, 409);
    return c.json({ text: plainText(stoppingOrchestrationText(record)) });
  });
  return app;
}
