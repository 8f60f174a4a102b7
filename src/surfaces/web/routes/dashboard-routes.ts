import { truncate } from '../../../work/presentation/format/index.ts';
import { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ApprovalBroker, WaitingQuestion } from '../../../work/approvals/approval-broker.ts';
import { recentAuditEntries } from '../../../kernel/audit/recent-entries.ts';
import type { AuditEntry, AuditLog } from '../../../kernel/audit/audit-log.ts';
import type { ChatStore } from '../../../kernel/store/chat-store.ts';
import type { OrchestrationStore } from '../../../work/orchestration/orchestration-store.ts';
import { graphSvg } from '../../../services/pictures/graph-svg.ts';
import { orchestrationGraph } from '../../../work/presentation/orchestration.ts';
import { followRun } from '../../../work/subagents/follow-run.ts';
import type { RunStore } from '../../../work/subagents/run-store.ts';
import type { Subagents } from '../../../work/subagents/subagents.ts';
import type { UsageLedger } from '../../../engine/usage/usage-ledger.ts';
import type { ChatSessions } from '../../../chat/session/chat-sessions.ts';
import type { WebEnv } from '../auth/guard.ts';
import { orchestrationView } from '../views/orchestration-view.ts';
import { runView } from '../views/run-view.ts';
import { chatName } from '../views/chat-name.ts';
import type { OrchestrationRecord } from '../../../work/orchestration/orchestration-record.ts';
import { logLine } from '../views/log-line.ts';
import type { WebOutbound } from '../chat/web-outbound.ts';
import type { ChatAccess } from '../../../work/access/chat-access.ts';
import { chatOfKey, type ChatRef } from '../../../kernel/ports/chat.ts';
import type { SubagentRunRecord } from '../../../work/subagents/record.ts';
import type { Context } from 'hono';
import { webChatOf } from '../chat/web-chat.ts';
import { person, visibleOrchestration, visibleRun } from './visible.ts';

/** What the dashboard shows, from the parts that keep it. */
export interface DashboardSources {
  runs: Pick<RunStore, 'all' | 'archived' | 'find' | 'onSaved'>;
  subagents: Subagents;
  orchestrations: Pick<OrchestrationStore, 'all' | 'get' | 'onSaved'>;
  approvals: Pick<ApprovalBroker, 'waiting' | 'onChanged' | 'answerAs'>;
  /** What each person may see and answer: the chats they are in (everything, for an owner). */
  access: Pick<ChatAccess, 'sees' | 'filter' | 'isOwner'>;
  ledger: Pick<UsageLedger, 'byDay' | 'chats' | 'people'>;
  audit: Pick<AuditLog, 'file'>;
  outbound: WebOutbound;
  /** The chats' records: their titles, kept from their messages. */
  store: Pick<ChatStore, 'get'>;
  /** The chats' sessions: those whose CLI is kept between turns now, and where it runs. */
  chats: Pick<ChatSessions, 'active'>;
}

/** Ended runs the table shows from the archive, besides the live ones. */
const ARCHIVED_SHOWN = 200;
/** A quiet stream still sends this often, so proxies and phones keep it open. */
const HEARTBEAT_MS = 15_000;
const INPUT_PREVIEW_CHARS = 2000;
/** Audit lines read for someone who sees only some chats, before the newest of theirs are kept. */
const AUDIT_READ_FOR_MEMBERS = 5000;

export function dashboardRoutes(sources: DashboardSources): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const named = (key: string) => chatName(key, (chat) => sources.store.get(chat)?.title);
  // A step shows its own prompt: the upstream results its CLI got first are on their own steps' pages.
  const ownTask = (run: SubagentRunRecord) =>
    run.orchestration && sources.orchestrations.get(run.orchestration.id)?.plan.steps.find((step) => step.id === run.orchestration!.step)?.prompt;
  const shownRun = (run: SubagentRunRecord) => runView(run, { chatName: named(run.requesterKey), ownTask: ownTask(run) });
  const shownOrchestration = (record: OrchestrationRecord) => orchestrationView(record, named(record.chatKey));
  const questionView = (question: WaitingQuestion) => {
    const input = JSON.stringify(question.input, null, 2);
    return { ...question, chatName: named(question.chatKey), input: truncate(input, INPUT_PREVIEW_CHARS) };
  };

  app.get('/me', (c) => {
    const { identity, name } = c.get('session');
    return c.json({ identity, name: name ?? identity });
  });

  const questionsFor = (who: string) => sources.access.filter(who, sources.approvals.waiting(), (question) => chatOfKey(question.chatKey));

  app.get('/runs', async (c) => {
    const live = sources.runs.all();
    const ids = new Set(live.map((run) => run.runId));
    const archived = (await sources.runs.archived()).filter((run) => !ids.has(run.runId));
    // Filtered before the archive is cut, so someone in few chats still sees their own last ones.
    const mine = await sources.access.filter(person(c), [...live, ...archived], (run) => run.chat);
    const ended = mine.filter((run) => !ids.has(run.runId)).slice(-ARCHIVED_SHOWN);
    const all = [...mine.filter((run) => ids.has(run.runId)), ...ended].sort((a, b) => b.createdAt - a.createdAt);
    return c.json(all.map((run) => shownRun(run)));
  });

  // Where each chat's session runs: on the bridge's host, or on which worker.
  app.get('/sessions', async (c) => {
    const live = sources.chats.active().filter((chat) => chat.agent.hasLiveProcess);
    const seen = await sources.access.filter(person(c), live, (chat) => chat.address);
    return c.json(
      seen.map(({ record, busy, agent }) => ({
        chat: record.key,
        cli: record.cli,
        working: busy,
        // None: on the bridge's own host.
        ...(agent.liveWhere ? { worker: agent.liveWhere } : {}),
        chatName: named(record.key),
      })),
    );
  });

  app.get('/runs/:id', async (c) => {
    const run = await visibleRun(c, sources);
    return run ? c.json(shownRun(run)) : c.json({ error: 'No such run.' }, 404);
  });

  // The run's log as it streams: each decoded event, then how it ended.
  app.get('/runs/:id/log', async (c) => {
    const run = await visibleRun(c, sources);
    if (!run) return c.json({ error: 'No such run.' }, 404);
    return streamSSE(c, async (stream) => {
      let gone = false;
      stream.onAbort(() => {
        gone = true;
      });
      for await (const item of followRun(sources.subagents, run, 0, () => gone)) {
        if ('event' in item) {
          const shown = logLine(item.event);
          if (shown) await stream.writeSSE({ event: 'line', id: String(item.sequence), data: JSON.stringify(shown) });
        } else await stream.writeSSE({ event: 'ended', data: JSON.stringify(shownRun(item.ended)) });
      }
    });
  });

  app.get('/orchestrations', async (c) => {
    const all = sources.orchestrations.all().sort((a, b) => b.createdAt - a.createdAt);
    return c.json((await sources.access.filter(person(c), all, (record) => chatOfKey(record.chatKey))).map(shownOrchestration));
  });

  app.get('/orchestrations/:id', async (c) => {
    const record = await visibleOrchestration(c, sources);
    return record ? c.json(shownOrchestration(record)) : c.json({ error: 'No such orchestration.' }, 404);
  });

  // The graph as the chat's picture draws it (white, so it reads in a dark page too): a `<g data-node data-state>` per step.
  app.get('/orchestrations/:id/graph.svg', async (c) => {
    const record = await visibleOrchestration(c, sources);
    if (!record) return c.json({ error: 'No such orchestration.' }, 404);
    const svg = graphSvg(
      orchestrationGraph(record, (runId) => sources.subagents.registry.get(runId)),
      { idPrefix: `o${record.id}-` },
    );
    return c.body(svg, 200, { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'no-store' });
  });

  // The spending of the chats this person may see (undefined: every chat, for an owner).
  const spendingSeen = async (c: Context<WebEnv>) =>
    sources.access.isOwner(person(c)) ? undefined : await sources.access.filter(person(c), sources.ledger.chats(), chatOfKey);

  app.get('/usage', async (c) => c.json(sources.ledger.byDay(await spendingSeen(c))));

  // What each person spent over the days kept.
  app.get('/usage/people', async (c) => {
    const keys = await spendingSeen(c);
    const spends = sources.ledger.people(keys ? { chatKeys: keys } : {});
    return c.json(spends.map(({ key, name, tally }) => ({ key, name, tally })));
  });

  // A line of no chat (the bridge's own, an API client's) is the owners'.
  app.get('/audit', async (c) => {
    const limit = Math.min(Math.max(Number(c.req.query('limit')) || 200, 1), 1000);
    const who = person(c);
    const namedEntries = (entries: AuditEntry[]) => entries.map((entry) => (entry.chat ? { ...entry, chatName: named(entry.chat) } : entry));
    if (sources.access.isOwner(who)) return c.json(namedEntries(await recentAuditEntries(sources.audit.file, limit)));
    const recent = await recentAuditEntries(sources.audit.file, AUDIT_READ_FOR_MEMBERS);
    return c.json(
      namedEntries((await sources.access.filter(who, recent, (entry) => (typeof entry.chat === 'string' ? chatOfKey(entry.chat) : undefined))).slice(0, limit)),
    );
  });

  app.get('/approvals', async (c) => c.json((await questionsFor(person(c))).map(questionView)));

  app.post('/approvals/:id', async (c) => {
    const body = await c.req.json().catch(() => ({}));
    const choice = body?.choice;
    if (choice !== 'allow' && choice !== 'deny' && choice !== 'always') return c.json({ error: 'choice must be allow, deny or always' }, 400);
    const waiting = sources.approvals.waiting().find((question) => question.id === c.req.param('id'));
    const chat = waiting && chatOfKey(waiting.chatKey);
    if (chat && !(await sources.access.sees(person(c), chat))) return c.json({ error: 'No such question.' }, 404);
    const { identity, name } = c.get('session');
    const answer = await sources.approvals.answerAs(c.req.param('id'), choice, { id: identity, identity, name: name ?? identity });
    return c.json(answer);
  });

  // Everything that changes, as it changes: runs, orchestrations, the questions waiting, and this person's own chat.
  app.get('/events', (c) => {
    const own = webChatOf(c.get('session'));
    const who = person(c);
    // Each change goes out once its chat is known to be this person's (the look-up is cached).
    const ifSeen = (chat: ChatRef | undefined, then: () => void) => {
      if (chat) void sources.access.sees(who, chat).then((seen) => seen && then());
    };
    return streamSSE(c, async (stream) => {
      const send = (event: string, data: unknown) => void stream.writeSSE({ event, data: JSON.stringify(data) }).catch(() => {});
      let lists = Promise.resolve();
      const unsubscribe = [
        sources.runs.onSaved((run) => ifSeen(run.chat, () => send('run', shownRun(run)))),
        sources.orchestrations.onSaved((record) => ifSeen(chatOfKey(record.chatKey), () => send('orchestration', shownOrchestration(record)))),
        // In order: a list looked up later never goes out before one looked up earlier.
        sources.approvals.onChanged(() => {
          lists = lists.then(async () => send('approvals', (await questionsFor(who)).map(questionView)));
        }),
        sources.outbound.watch((chat, message) => {
          if (chat === own.key) send('chat', message);
        }),
      ];
      await stream.writeSSE({ event: 'hello', data: '{}' });
      await heartbeat(stream);
      for (const stop of unsubscribe) stop();
    });
  });
  return app;
}

/** Keeps the stream open until the client leaves, with a comment line now and then. */
function heartbeat(stream: SSEStreamingApi): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => void stream.write(': still here\n\n').catch(() => {}), HEARTBEAT_MS);
    stream.onAbort(() => {
      clearInterval(timer);
      resolve();
    });
  });
}
