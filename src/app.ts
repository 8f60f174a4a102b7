import { ApprovalBroker } from './approvals/approval-broker.ts';
import { askerId } from './approvals/asker.ts';
import { AuditLog } from './audit/audit-log.ts';
import { Bridge } from './bridge/bridge.ts';
import { ChatSessions } from './bridge/chat-sessions.ts';
import { installOrchestrationCommands } from './bridge/commands/orchestrate.ts';
import { installSubagentCommands } from './bridge/commands/subagents.ts';
import { orchestrationProgress } from './presentation/orchestration.ts';
import { spawnedText, stopButton } from './presentation/runs.ts';
import { chatKey, type ChatAddress, type Outbound } from './ports/transport.ts';
import { plain } from './presentation/deliver.ts';
import type { Usage } from './protocols/events.ts';
import { DailyBudget, msUntilReset } from './usage/budget.ts';
import { budgetRefusalText, budgetWarningText } from './presentation/usage.ts';
import { UsageLedger, type Spend } from './usage/usage-ledger.ts';
import { installUsageCommand } from './bridge/commands/usage.ts';
import { installAgentCommands } from './bridge/commands/agents.ts';
import { installTrustCommand } from './bridge/commands/trust.ts';
import { installHealth } from './bridge/commands/health.ts';
import { AgentLibrary } from './agents/library.ts';
import { TrustedDirectories } from './projects/trust.ts';
import { AgentToggles } from './agents/toggles.ts';
import { cliAgents } from './agents/cli-agents.ts';
import { installResumeCommand } from './bridge/commands/resume.ts';
import type { BridgeConfig } from './config/config.ts';
import { orchestrationAnnouncements } from './outbox/orchestration-announcements.ts';
import { OrchestrationStore } from './orchestration/orchestration-store.ts';
import { Orchestrator } from './orchestration/orchestrator.ts';
import { ApiScopes } from './api/scopes.ts';
import { ApiServer } from './api/api-server.ts';
import { Outbox } from './outbox/outbox.ts';
import type { ChatStore } from './store/chat-store.ts';
import { displayName, NO_CHAT, runAddress, type SubagentRunRecord } from './subagents/record.ts';
import type { PermissionMode } from './policy/permission-mode.ts';
import { runAnnouncements } from './outbox/run-announcements.ts';
import { RunStore } from './subagents/run-store.ts';
import { QueueExecutor } from './queue/queue-executor.ts';
import { QueueSigner } from './queue/signing.ts';
import { Subagents } from './subagents/subagents.ts';
import { AgentInbox, orchestrationHandBack, runHandBack } from './tools/agent-inbox.ts';
import { MCP_SERVER_NAME, McpEndpoint } from './tools/mcp-endpoint.ts';
import { APPROVAL_TOOL } from './tools/scope.ts';
import { SessionTools } from './tools/session-tools.ts';
import { Inbox } from './files/inbox.ts';
import { Transcriber } from './files/transcriber.ts';
import type { Downloads } from './ports/transport.ts';
import { ToolCalls } from './tools/tool-calls.ts';
import type { Log } from './log/logger.ts';
import type { Secrets } from './log/secrets.ts';

export interface App {
  bridge: Bridge;
  subagents: Subagents;
  orchestrator: Orchestrator;
  outbox: Outbox;
  endpoint: McpEndpoint;
  /** Tells chats about messages a previous bridge left unanswered, recovers subagents and orchestrations, announces what is owed. */
  start: () => Promise<{ interrupted: number; requeued: number }>;
  /** Resolves when nothing is running: no turn, no subagent, no orchestration, nothing to announce (the console at the end of its input). */
  idle: () => Promise<void>;
  /** Stops every CLI cleanly and saves state. */
  shutdown: () => Promise<void>;
}

/**
 * Every part of the bridge over one transport's Outbound, each built with what it needs:
 * what `main.ts`, the console and the benchmarks run. The one place parts are wired.
 */
export async function createApp(options: {
  config: BridgeConfig;
  store: ChatStore;
  out: Outbound;
  trustEveryone?: boolean;
  /** How the transport fetches files people send; none (the console): files cannot be received. */
  downloads?: Downloads;
  log: Log;
  /** The transport's round trip, for /status (Telegram: a getMe); none in the console. */
  roundTripMs?: () => Promise<number>;
  /** The MCP endpoint's session secrets join these while they live: no log line shows them. */
  secrets?: Secrets;
}): Promise<App> {
  const { config, store, out, log } = options;
  const { settings } = config;
  const audit = new AuditLog(config.dataDir);
  const runStore = await RunStore.open(config.dataDir);
  const orchestrationStore = await OrchestrationStore.open(config.dataDir, { cwd: config.workdir, cli: config.defaultCli });
  const ledger = await UsageLedger.open(config.dataDir);
  const trust = await TrustedDirectories.open(config.dataDir);
  const trusts = async (dir: string) => (await trust.covering(dir)) !== undefined;
  const agents = new AgentLibrary({
    dataDir: config.dataDir,
    knownClis: [...config.adapters.keys()],
    toggles: await AgentToggles.open(config.dataDir),
    trusts,
  });
  const budget = new DailyBudget(ledger, config.dailyBudgetUsd);
  const refuseWork = (key: string) => {
    const spent = budget.spent(key);
    return spent === undefined ? undefined : budgetRefusalText(spent, budget.limitUsd!, msUntilReset());
  };

  // The one forward reference: the agents' tools start runs, and runs are given the tools.
  let toolCalls: ToolCalls | undefined;
  const endpoint = await McpEndpoint.listen(
    { tools: config.manifest.tools, call: (scope, name, args) => toolCalls!.call(scope, name, args) },
    config.mcp,
    options.secrets,
  );
  const approvals = new ApprovalBroker({
    out,
    audit,
    timeoutMs: settings.approvalTimeoutSeconds * 1000,
    ownServerPrefix: `mcp__${MCP_SERVER_NAME}__`,
    ownTool: `mcp__${MCP_SERVER_NAME}__${APPROVAL_TOOL}`,
    log,
  });
  const toolTimeoutMs = (settings.approvalTimeoutSeconds + 60) * 1000;
  // A secret revoked is a run ended or a session replaced: its questions and allowances go too.
  const sessionTools = new SessionTools({
    endpoint,
    config,
    maxDepth: settings.subagents.maxDepth,
    toolTimeoutMs,
    onRevoked: (name) => approvals.forget(name),
    agents,
  });

  const chats = new ChatSessions(
    config,
    store,
    (chat) =>
      sessionTools.forMainSession({
        address: chat.address,
        adapter: chat.adapter,
        sessionId: () => chat.record.cliSessionId,
        mode: chat.effectivePermissionMode,
        workdir: chat.record.workdir,
        onApprovalWaiting: (tools) => chat.current?.presenter.showWaiting(tools),
      }),
    // Read before each turn: the directory's trust as it is now (a session that may only read never trusts), and the
    // agents enabled there for the Task tool of a CLI that has one (their catalog says the same of trust).
    async (chat) => {
      const readOnly = chat.effectivePermissionMode === 'safe';
      if (!chat.adapter.options.agents) return { trusted: !readOnly && (await trusts(chat.record.workdir)) };
      const catalog = await agents.catalog(chat.record.workdir, { readOnly });
      return { trusted: catalog.trusted, agents: cliAgents(catalog, chat.adapter.name) };
    },
    log,
  );
  const inbox = options.downloads && new Inbox(options.downloads, { timeoutMs: settings.fileTransferTimeoutSeconds * 1000 });
  const files = { ...(inbox ? { inbox } : {}), ...(config.transcribe ? { transcriber: new Transcriber(config.transcribe) } : {}) };
  const bridge = new Bridge({ config, chats, out, trustEveryone: options.trustEveryone ?? false, refuseWork, files, log });
  const agentInbox = new AgentInbox(bridge, settings.subagents.announceTo === 'both');
  const outbox = new Outbox({
    out,
    log,
    sources: [
      runAnnouncements({
        store: runStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        retentionMinutes: settings.subagents.retentionMinutes,
        toAgent: (runs) => agentInbox.deliver(runs.map(runHandBack)),
      }),
      orchestrationAnnouncements({
        store: orchestrationStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        toAgent: (records) => agentInbox.deliver(records.map(orchestrationHandBack)),
      }),
    ],
  });
  const toolsFor = (run: SubagentRunRecord, reuse?: string) => sessionTools.forSubagent(run, reuse);
  // With a queue, runs go to workers; without, they run in this process.
  const executor =
    config.redisUrl &&
    new QueueExecutor({
      redisUrl: config.redisUrl,
      keepSeconds: settings.workers.keepHours * 3600,
      toolsFor,
      toolTimeoutMs,
      signer: new QueueSigner(config.queueSecret!),
      log,
    });
  // Runs of no chat have nobody to ask: in a bridge that does not bypass, they only read.
  const chatMode = (address: ChatAddress): PermissionMode =>
    address.chatId === NO_CHAT ? (config.permissionMode === 'bypass' ? 'bypass' : 'safe') : chats.get(address).permissionMode;
  const subagents = new Subagents({ config, store: runStore, audit, log, toolsFor, refuseWork, chatMode, agents, trusts, ...(executor ? { executor } : {}) });
  // Every turn's and run's cost goes to the ledger; the chat hears once a day when it nears its budget.
  const spend = (key: string, address: ChatAddress, entry: Spend) => {
    const before = ledger.costOn(key);
    void ledger
      .record(key, entry)
      .then((after) => {
        if (budget.crossedWarning(before, after)) return out.send(address, plain(budgetWarningText(after, budget.limitUsd!))).then(() => {});
      })
      .catch((error: Error) => log.error({ chat: key, err: error }, 'recording usage failed'));
  };
  subagents.onEnded((run) => {
    sessionTools.release(run.runId); // and with its secret, its open questions
    outbox.kick();
    if (run.usage || run.costUsd !== undefined)
      spend(run.requesterKey, runAddress(run), { ...runSpend(run), run: { runId: run.runId, number: run.number, label: displayName(run) } });
  });
  bridge.onTurnEnded((chat, outcome) => {
    approvals.cancel(askerId.main(chat.address), 'The turn ended.');
    const result = outcome.result;
    if (!result?.usage && result?.costUsd === undefined) return;
    spend(chatKey(chat.address), chat.address, {
      cli: chat.record.cli,
      ...(chat.record.model ? { model: chat.record.model } : {}),
      ...tokens(result.usage),
      ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
    });
  });
  const orchestrator = new Orchestrator({
    store: orchestrationStore,
    subagents,
    out,
    announce: () => outbox.kick(),
    progressText: orchestrationProgress,
    announceTo: settings.subagents.announceTo,
    log,
  });
  toolCalls = new ToolCalls({
    tools: config.manifest.tools,
    dataDir: config.dataDir,
    subagents,
    approvals,
    orchestrator,
    out,
    // People see what the agent started, and can stop it, like any /spawn.
    notice: (run, position) => void out.send(runAddress(run), spawnedText(run, position, true), { buttons: [[stopButton(run)]] }).catch(() => {}),
    chatDefaults: (address) => {
      const { record } = bridge.chats.get(address);
      return { cwd: record.workdir, cli: record.cli };
    },
  });
  // Orchestrations leave the live file like runs do: after their retention, for an archive kept per chat.
  const sweepOrchestrations = () =>
    orchestrationStore
      .sweep(Date.now(), settings.subagents.retentionMinutes * 60_000, settings.subagents.historyPerChat)
      .catch((error: Error) => log.error({ err: error }, 'sweeping finished orchestrations failed'));
  // Files people sent leave a chat's inbox after their retention: the chats' directories, and where chats start.
  const sweepInboxes = () =>
    inbox
      ?.sweep([config.workdir, ...store.all().map((record) => record.workdir)], settings.inboxRetentionHours * 3_600_000)
      .then(({ refused }) => {
        for (const why of refused) log.warn(`an inbox was not swept: ${why}`);
      })
      .catch((error: Error) => log.error({ err: error }, 'sweeping the inboxes failed'));
  let sweeping: NodeJS.Timeout | undefined;
  installOrchestrationCommands(bridge, orchestrator);
  installSubagentCommands(bridge, subagents, approvals);
  installAgentCommands(bridge, agents);
  installTrustCommand(bridge, trust, audit);
  installUsageCommand(bridge, ledger, budget);
  installResumeCommand(bridge, config);
  installHealth(bridge, {
    ...(options.roundTripMs ? { roundTripMs: options.roundTripMs } : {}),
    runs: () => ({ running: subagents.registry.runningTotal(), queued: subagents.registry.queuedTotal() }),
    dataDir: config.dataDir,
  });

  let api: ApiServer | undefined;

  return {
    bridge,
    subagents,
    orchestrator,
    outbox,
    endpoint,
    async start() {
      if (config.api) {
        api = await ApiServer.start(config.api, { subagents, orchestrator, config, reachable: (chatId) => store.knows(chatId), log });
        for (const client of ApiScopes.unscoped(config.api))
          log.warn(`API client "${client}" is in no scope of BRIDGE_API_SCOPES: it reaches only the runs started with no chat`);
        log.info(
          `SubagentService listening on ${api.address}${config.api.tls ? ' (TLS)' : ''}, ${config.api.tokens.length} client${config.api.tokens.length === 1 ? '' : 's'}`,
        );
      }
      await bridge.reportInterrupted();
      const recovered = await subagents.start();
      if (recovered.interrupted || recovered.requeued)
        log.info(`recovered subagents: ${recovered.interrupted} interrupted, ${recovered.requeued} queued again`);
      await orchestrator.start();
      outbox.kick();
      void sweepInboxes();
      let minutes = 0;
      sweeping = setInterval(() => {
        void sweepOrchestrations();
        if (++minutes % 60 === 0) void sweepInboxes();
      }, 60_000).unref();
      return recovered;
    },
    async idle() {
      // A finished run can start a new main turn (its result handed back), so settle until all is still.
      for (;;) {
        await bridge.idle();
        await subagents.idle();
        await outbox.settle();
        await new Promise((resolve) => setTimeout(resolve, 1500)); // the agent inbox gathers results this long
        if (bridge.isIdle() && subagents.isIdle() && !orchestrator.anyRunning()) return;
      }
    },
    // Subagents first, so no queued run starts in a slot a stopping turn frees.
    async shutdown() {
      clearInterval(sweeping);
      await api?.close();
      agentInbox.close();
      await subagents.shutdown();
      await bridge.shutdown();
      await outbox.settle();
      outbox.close();
      await endpoint.close();
      sessionTools.close();
      await audit.flush();
    },
  };
}

function tokens(usage: Usage | undefined): Pick<Spend, 'inputTokens' | 'outputTokens'> {
  return usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : {};
}

function runSpend(run: SubagentRunRecord): Spend {
  return { cli: run.cli, ...(run.model ? { model: run.model } : {}), ...tokens(run.usage), ...(run.costUsd !== undefined ? { costUsd: run.costUsd } : {}) };
}
