import { ApprovalBroker } from '../work/approvals/approval-broker.ts';
import { QUESTION } from '../work/approvals/question.ts';
import { askerId } from '../work/approvals/asker.ts';
import { chatPeopleMayAnswer } from '../work/approvals/who-may-answer.ts';
import { ChatPeople } from '../work/access/chat-people.ts';
import { ChatAccess } from '../work/access/chat-access.ts';
import type { ChatMembers } from '../kernel/ports/chat-members.ts';
import { AuditLog } from '../kernel/audit/audit-log.ts';
import { Bot } from '../chat/bot.ts';
import { COMMANDS } from '../chat/commands/index.ts';
import type { Command } from '../chat/dispatch/command.ts';
import { Spending } from '../chat/people/spending.ts';
import { AgentQuestions } from '../chat/agent/agent-questions.ts';
import { HostQuestions } from '../work/approvals/host-questions.ts';
import { LivePool } from '../engine/session/live-pool.ts';
import { every } from '../kernel/concurrency/periodic.ts';
import { untilStill } from '../kernel/concurrency/until-still.ts';
import { spawnedText, stopButton } from '../work/presentation/runs.ts';
import { NO_CHAT, type Outbound, type Downloads } from '../kernel/ports/chat.ts';
import type { InAppLogin, TransportHost, TransportRoute } from '../kernel/ports/transport.ts';
import { DailyBudget } from '../engine/usage/budget.ts';
import { CostMeter, unpricedReason } from '../engine/usage/cost-meter.ts';
import { UsageLedger } from '../engine/usage/usage-ledger.ts';
import { AgentLibrary } from '../engine/agents/library.ts';
import { TrustedDirectories } from '../engine/projects/trust.ts';
import { AgentToggles } from '../engine/agents/toggles.ts';
import type { BridgeConfig } from './config.ts';
import { OrchestrationStore } from '../work/orchestration/orchestration-store.ts';
import type { ChatStore } from '../kernel/store/chat-store.ts';
import { RunStore } from '../work/subagents/run-store.ts';
import { AgentInbox, orchestrationReport, runReport } from '../chat/agent/agent-inbox.ts';
import { Outbox } from '../work/outbox/outbox.ts';
import { runAnnouncements } from '../work/outbox/run-announcements.ts';
import { orchestrationAnnouncements } from '../work/outbox/orchestration-announcements.ts';
import { MCP_SERVER_NAME } from '../work/tools/mcp-endpoint.ts';
import { APPROVAL_TOOL } from '../work/tools/definitions/approve-tool.ts';
import { Inbox } from '../engine/files/inbox.ts';
import { Transcriber } from '../engine/files/transcriber.ts';
import type { Log } from '../kernel/log/logger.ts';
import type { Secrets } from '../kernel/log/secrets.ts';
import { RunReview } from '../work/subagents/run-review.ts';
import { checkoutBusy } from '../chat/turns/checkout-work.ts';
import type { DrainReason } from '../chat/turns/leaving.ts';
import { Scheduler } from '../services/schedules/scheduler.ts';
import { ScheduleStore } from '../services/schedules/schedule-store.ts';
import { scheduledWork } from '../chat/triggers/scheduled-work.ts';
import { WebLogins } from '../surfaces/web/auth/web-logins.ts';
import type { WebOutbound } from '../surfaces/web/chat/web-outbound.ts';
import { startSurfaces } from './surfaces.ts';
import { agentTools } from './agent-tools.ts';
import type { RemoteSessions } from '../work/workers/remote-sessions.ts';
import { chatSessions } from './chats.ts';
import { wireRuns } from './runs.ts';
import { commandServices } from './services.ts';
import { ShareLinks } from '../surfaces/web/shares/share-links.ts';
import { Transcripts } from '../work/transcripts/transcripts.ts';
import { Conversations } from '../work/transcripts/conversations.ts';
import { chatName } from '../surfaces/web/views/chat-name.ts';
import { recordMetrics, workLabels } from './metrics.ts';
import { workSpent } from '../services/telemetry/metrics-work.ts';
import type { Scrape } from '../services/telemetry/metrics-route.ts';

/** The chat's commands by name: what the chat apps write the app's way in every text (main.ts gives them to the transports it starts). */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((command) => command.name);

/** The bridge, built: its parts, and how it starts, drains and stops. */
export type App = Awaited<ReturnType<typeof createApp>>;

/**
 * Every part of the bridge over one transport's Outbound, each built with what it needs:
 * what `main.ts`, the console and the benchmarks run. The one place parts are wired.
 */
export async function createApp(options: {
  config: BridgeConfig;
  store: ChatStore;
  out: Outbound;
  /** The transport whose one user is the owner at the keyboard (the console), allowlist or not. */
  trustEveryoneOn?: string;
  /** Who is in which chat, by transport id: what the dashboard shows each person, and who may answer a chat's questions. A transport not here (none given): its chats are the owners' alone. */
  members?: ReadonlyMap<string, ChatMembers>;
  /** How each transport fetches files people send, by id; a transport not here (the console): files cannot be received. */
  downloads?: ReadonlyMap<string, Downloads>;
  log: Log;
  /** Each transport's round trip, for /status (a chat app's cheapest call), by id; none in the console. */
  roundTrips?: ReadonlyMap<string, () => Promise<number>>;
  /** The MCP endpoint's session secrets join these while they live: no log line shows them. */
  secrets?: Secrets;
  /** The chat's commands: every one (`COMMANDS`) unless given. */
  commands?: readonly Command[];
  /** Endpoints the transports' services call (a chat app's event callbacks), on the web server. */
  routes?: readonly TransportRoute[];
  /** The web pages' chats, served with the dashboard when BRIDGE_WEB_ADDR is set; and the chat app's in-app login, where it has one. */
  web?: { outbound: WebOutbound; inApp?: { login: InAppLogin; transport: string } };
  /** The metrics as Prometheus text, served at `/metrics` on the web server; none: not served there. */
  scrapeMetrics?: Scrape;
}) {
  const { config, store, out, log } = options;
  const { settings } = config;
  const audit = new AuditLog(config.dataDir);
  const runStore = await RunStore.open(config.dataDir);
  const orchestrationStore = await OrchestrationStore.open(config.dataDir, { cwd: config.workdir, cli: config.defaultCli });
  const ledger = await UsageLedger.open(config.dataDir);
  const trust = await TrustedDirectories.open(config.dataDir);
  const people = await ChatPeople.open(config.dataDir);
  const trusts = async (dir: string) => (await trust.covering(dir)) !== undefined;
  const agents = new AgentLibrary({
    dataDir: config.dataDir,
    knownClis: [...config.adapters.keys()],
    toggles: await AgentToggles.open(config.dataDir),
    trusts,
  });
  const labelsOf = workLabels(config);
  const budget = new DailyBudget((chat, day) => ledger.costOn(chat, day), config.dailyBudgetUsd);
  const personBudget = new DailyBudget((person, day) => ledger.personCostOn(person, day), config.personDailyBudgetUsd);
  const spending = new Spending({
    ledger,
    budget,
    personBudget,
    priceTurn: (cli, model, result) => {
      const meter = new CostMeter(config.prices, cli, config.adapters.get(cli)?.protocol, model);
      meter.observe(result);
      return meter.priced ? meter.usd : undefined;
    },
    out,
    spent: (work, spend) => workSpent(work, labelsOf(spend.cli, spend.model), spend.usage, spend.costUsd),
    log,
  });

  // Owners are the allowlist's, which the bridge holds: asked once it is built, at the first look-up.
  const access = new ChatAccess({
    members: options.members ?? new Map(),
    isOwner: (person): boolean => bot.allowlist.isOwner(NO_CHAT, { id: person, identity: person }),
    mayUse: (chat, person): boolean => bot.allowlist.isAllowed(chat, { id: person, identity: person }),
    log,
  });
  const approvals = new ApprovalBroker({
    out,
    audit,
    timeoutMs: settings.approvalTimeoutSeconds * 1000,
    ownServerPrefix: `mcp__${MCP_SERVER_NAME}__`,
    ownTool: `mcp__${MCP_SERVER_NAME}__${APPROVAL_TOOL}`,
    mayAnswer: chatPeopleMayAnswer(access, log),
    rules: config.approvalRules,
    log,
  });
  const { endpoint, sessionTools, toolTimeoutMs, provide } = await agentTools({ config, approvals, agents, secrets: options.secrets });

  const questions = new AgentQuestions({ out, timeoutMs: settings.approvalTimeoutSeconds * 1000, log });
  const hostQuestions = new HostQuestions({ out, timeoutMs: settings.approvalTimeoutSeconds * 1000, mayAnswer: chatPeopleMayAnswer(access, log), log });
  // Workers, with BRIDGE_REDIS_URL: their module (and the queue's libraries) is loaded only then.
  const { redisUrl } = config;
  const workers: RemoteSessions | undefined = redisUrl ? await (await import('./workers.ts')).workerSide(config, redisUrl, endpoint, log) : undefined;
  await workers?.start();
  // Chats' sessions on workers (BRIDGE_SESSION_WORKERS): each worker bounds its own processes (BRIDGE_WORKER_LIVE_SESSIONS).
  const remote = config.sessionWorkers.on ? workers : undefined;
  // CLIs kept between turns, bounded: past the limit the least recently used idle one closes.
  const live = new LivePool(remote ? { ...config.live, max: Number.MAX_SAFE_INTEGER } : config.live);
  // What most parts are built with: each takes what its parameters name.
  const common = { config, store, out, log, audit, agents, trusts, approvals, questions, sessionTools };
  const chats = chatSessions({ ...common, live, hostQuestions, remote });
  const { subagents, orchestrator } = wireRuns({
    ...common,
    runStore,
    orchestrationStore,
    toolTimeoutMs,
    refuseWork: (key, person) => spending.refusal(key, person),
    costs: {
      unpriced: (cli, model) => unpricedReason(config, cli, model),
      personLeft: (person) => spending.personLeft(person),
    },
    chats,
    announce: () => outbox.kick(),
    workers,
  });

  const web =
    config.web && options.web ? { sessions: await WebLogins.open(config.dataDir), shares: await ShareLinks.open(config.dataDir), ...options.web } : undefined;
  const transcripts = new Transcripts(config.dataDir);
  const conversations = new Conversations({
    transcripts,
    events: (run) => subagents.events(run),
    chatName: (key) => chatName(key, (chatKey) => store.get(chatKey)?.title),
  });
  const scheduler = new Scheduler({ store: await ScheduleStore.open(config.dataDir), timeZone: config.timeZone, log });
  const inboxes = new Map(
    [...(options.downloads ?? [])].map(([id, downloads]) => [id, new Inbox(downloads, { timeoutMs: settings.fileTransferTimeoutSeconds * 1000 })]),
  );
  const files = { inboxes, transcriber: config.transcribe && new Transcriber(config.transcribe) };
  const review = new RunReview({ store: runStore, audit, checkoutBusy: (root) => checkoutBusy(root, chats, runStore) });
  // What the commands and the surfaces (the API, the web pages) both work with.
  const shared = { subagents, orchestrator, review, ledger, web, conversations };
  const services = commandServices({
    ...shared,
    config,
    approvals,
    agents,
    trust,
    audit,
    budget,
    personBudget,
    scheduler,
    people,
    roundTrips: options.roundTrips,
  });
  const bot = new Bot({
    config,
    chats,
    out,
    commands: options.commands ?? COMMANDS,
    services,
    trustEveryoneOn: options.trustEveryoneOn,
    budget: spending,
    files,
    questions,
    transcripts,
    log,
  });
  bot.button(QUESTION, (press, answer) => approvals.answer(press, answer));
  questions.wire((kind, handler) => bot.button(kind, handler));
  hostQuestions.wire((kind, handler) => bot.button(kind, handler));
  const agentInbox = new AgentInbox(bot, settings.subagents.announceTo === 'both');
  // What is owed to the chats (runs' and orchestrations' results), announced once each, and handed back to the agent that asked.
  const outbox = new Outbox({
    out,
    log,
    sources: [
      runAnnouncements({
        store: runStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        retentionMinutes: settings.subagents.retentionMinutes,
        toAgent: (runs) => agentInbox.deliver(runs.map(runReport)),
      }),
      orchestrationAnnouncements({
        store: orchestrationStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        toAgent: (records) => agentInbox.deliver(records.map(orchestrationReport)),
      }),
    ],
  });
  subagents.onEnded((run) => {
    sessionTools.release(run.runId); // and with its secret, its open questions
    outbox.kick();
    spending.runEnded(run);
  });
  bot.turns.onEnded((chat, outcome, turn) => {
    approvals.cancel(askerId.main(chat.address), 'The turn ended.');
    spending.turnEnded(chat, outcome, turn.payer);
  });
  provide({
    dataDir: config.dataDir,
    scheduler,
    subagents,
    approvals,
    orchestrator,
    out,
    // People see what the agent started, and can stop it, like any /spawn.
    notice: (run, position) => void out.send(run.chat, spawnedText(run, position, true), { buttons: [[stopButton(run)]] }).catch(() => {}),
    chatDefaults: (address) => {
      const { record } = chats.get(address);
      return { cwd: record.workdir, cli: record.cli };
    },
  });

  const stopObserving = recordMetrics({ config, bot, subagents, live, approvals, workers });

  let surfaces: { close(): Promise<void> } | undefined;
  let inboxSweeping: { stop: () => void } | undefined;
  let liveSweeping: { stop: () => void } | undefined;

  const idle = () => untilStill([bot, subagents, orchestrator, outbox, agentInbox]);
  /** A restart has begun (a signal, perhaps while the bridge was still starting). */
  let stopping = false;
  const host: TransportHost = {
    handleMessage: (message) => bot.handleMessage(message),
    handleButton: (press) => bot.handleButton(press),
    isAllowed: (chat, user) => bot.allowlist.isAllowed(chat, user),
    commands: bot.commands,
    idle,
  };
  return {
    bot,
    /** What the transport feeds and asks. */
    host,
    subagents,
    orchestrator,
    endpoint,
    /** The chats' CLI processes kept between turns. */
    live,
    /** Tells chats about messages a previous bridge left unanswered, recovers subagents and orchestrations, announces what is owed. */
    async start() {
      surfaces = await startSurfaces({
        ...common,
        ...shared,
        bot,
        host,
        runStore,
        orchestrationStore,
        access,
        routes: options.routes ?? [],
        scrapeMetrics: options.scrapeMetrics,
      });
      await bot.recoverInterrupted();
      const recovered = await subagents.start();
      if (recovered.interrupted || recovered.requeued)
        log.info(`recovered subagents: ${recovered.interrupted} interrupted, ${recovered.requeued} queued again`);
      await orchestrator.start();
      // After the interrupted turns: a schedule that came due while the bridge was down queues behind them.
      await scheduler.start(scheduledWork({ bot, spawner: subagents.spawner, log }));
      // Once what they make is taken up, so a command found to have made its run (or plan, or schedule) is not carried out again.
      await bot.replayCommands();
      // What an earlier process left to announce waits for a start that stays: a call begun
      // while this one stops could be cut by a kill, and sent twice. Runs that end during the
      // drain are still announced (their onEnded).
      if (!stopping) outbox.kick();
      else log.info('the start ended during a restart: what is left to announce waits for the next start');
      liveSweeping = every(
        60_000,
        () => live.sweep(),
        (error) => log.error({ err: error }, 'closing idle CLIs failed'),
      );
      // Files people sent leave a chat's inbox after their retention: the chats' directories, and where chats start.
      if (inboxes.size)
        inboxSweeping = Inbox.sweepEvery(
          3_600_000,
          () => [config.workdir, ...store.all().map((record) => record.workdir)],
          settings.inboxRetentionHours * 3_600_000,
          log,
        );
      return recovered;
    },
    /** Resolves when nothing is running: no turn, no subagent, no orchestration, nothing to announce (the console at the end of its input). */
    idle,
    /** What a drain begun now would wait for: the chats whose turn is at work, and how many runs in this process. */
    atWork: () => ({ turns: bot.turnsAtWork(), runs: subagents.registry.runsHere() }),
    /** A restart's first part, or leaving's (`why`): nothing new starts, and running turns and runs have BRIDGE_DRAIN_SECONDS to finish; `shutdown` then stops the rest, to go on after it. */
    async drain(why?: DrainReason) {
      stopping = true;
      const ms = config.restart.drainMs;
      log.info(`draining (${why ?? 'restart'}): running turns and runs have ${ms / 1000} s to finish`);
      await Promise.all([bot.drain(ms, why), subagents.registry.drain(ms)]);
    },
    /** Stops every CLI cleanly and saves state: subagents first, so no queued run starts in a slot a stopping turn frees. */
    async shutdown() {
      stopping = true;
      inboxSweeping?.stop();
      liveSweeping?.stop();
      stopObserving();
      orchestrator.close();
      scheduler.close();
      await surfaces?.close();
      agentInbox.close();
      await subagents.shutdown();
      await bot.shutdown();
      await transcripts.flush();
      await live.closeAll();
      await workers?.close();
      await outbox.settle();
      outbox.close();
      await endpoint.close();
      sessionTools.close();
      await audit.flush();
    },
  };
}
