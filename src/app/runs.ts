import type { RunCosts } from '../work/subagents/spawner.ts';
import { runPermissions } from '../chat/agent/agent-permissions.ts';
import type { ChatSessions } from '../chat/session/chat-sessions.ts';
import { warnIfFails } from '../kernel/log/logger.ts';
import type { OrchestrationStore } from '../work/orchestration/orchestration-store.ts';
import { Orchestrator } from '../work/orchestration/orchestrator.ts';
import { graphSvg } from '../services/pictures/graph-svg.ts';
import { svgToPng } from '../services/pictures/render-png.ts';
import type { PermissionMode } from '../kernel/policy/permission-mode.ts';
import { isNoChat, type ChatRef } from '../kernel/ports/chat.ts';
import { orchestrationGraph, orchestrationProgress, orchestrationSummary } from '../work/presentation/orchestration.ts';
import { credentialGate } from './checks/credential-gate.ts';
import { NO_SUCH_HOST, NOT_LISTED } from '../engine/sandbox/egress-decision.ts';
import { modelApiBase } from '../engine/sandbox/model-api-access.ts';
import { noAnswerYet } from '../work/presentation/progress.ts';
import { blockedLine } from '../work/presentation/blocked.ts';
import type { RemoteSessions } from '../work/workers/remote-sessions.ts';
import { plain } from '../kernel/rich/index.ts';
import { displayName, type SubagentRunRecord } from '../work/subagents/record.ts';
import type { RunStore } from '../work/subagents/run-store.ts';
import { Subagents } from '../work/subagents/subagents.ts';
import type { CommonParts } from './parts.ts';

/** Subagent runs (in this process, or on workers through the queue) and the orchestrations made of them. */
export function wireRuns(
  parts: CommonParts & {
    runStore: RunStore;
    orchestrationStore: OrchestrationStore;
    toolTimeoutMs: number;
    /** Why a chat (or the person asking) may start no run now (a daily budget), or undefined. */
    refuseWork: (chatKey: string, person?: string) => string | undefined;
    /** How a run's budget is checked. */
    costs: RunCosts;
    chats: Pick<ChatSessions, 'get'>;
    /** What is owed to the chats is announced now (the outbox). */
    announce: () => void;
    /** Where runs' sessions are placed on workers (with BRIDGE_REDIS_URL). */
    workers?: RemoteSessions;
  },
): { subagents: Subagents; orchestrator: Orchestrator } {
  const { config, sessionTools, out, log } = parts;
  const { settings } = config;
  const toolsFor = (run: SubagentRunRecord, reuse?: string) => sessionTools.forSubagent(run, reuse);
  // A line in a run's chat (a run of no chat has none); `what` names it in the log should it fail.
  const say = (run: SubagentRunRecord, line: string, what: string) => {
    if (!isNoChat(run.chat)) void warnIfFails(out.send(run.chat, plain(line)), log, what, { run: run.runId });
  };
  // Runs of no chat (the API's) have nobody to ask: they only read unless BRIDGE_API_NO_CHAT_MODE says bypass.
  const chatMode = (address: ChatRef): PermissionMode => (isNoChat(address) ? (config.api?.noChatMode ?? 'safe') : parts.chats.get(address).permissionMode);
  const subagents = new Subagents({
    config,
    store: parts.runStore,
    audit: parts.audit,
    log,
    toolsFor,
    // Runs ask the chat on their CLI's control channel, on a worker too (the worker reports what the CLI asks).
    permissions: runPermissions({ approvals: parts.approvals, questions: parts.questions }),
    // A run goes on in the next CLI of its chat's chain when a limit stops its own, and says so there.
    fallback: (run) => (isNoChat(run.chat) ? config.fallback : parts.chats.get(run.chat).fallbackChain),
    // Which CLI took it over, or that it moved to another worker.
    tell: (run, line) => say(run, line, 'a line about the run'),
    refuseWork: parts.refuseWork,
    costs: parts.costs,
    chatMode,
    // A chat's /net hosts go with the runs spawned there, to a worker too (in the session's launch).
    netAllow: (address) => (isNoChat(address) ? undefined : parts.chats.get(address).record.netAllow),
    // A host a run's sandbox refused: one line in its chat, once per host (the audit trail has it too).
    onBlocked: (run, host, why) => {
      const line =
        why === NO_SUCH_HOST
          ? `#${run.number} ${displayName(run)}: ${blockedLine(host, why)}`
          : `🚫 #${run.number} ${displayName(run)}: blocked ${host} (${why})${why === NOT_LISTED ? `; /net allow ${host} lets this chat's agents reach it` : ''}`;
      say(run, line, "a blocked host's line");
    },
    // A run's CLI that keeps retrying its model API: one line in its chat, where that API is and the CLI's words.
    onStuck: (run, words) => {
      const access = config.adapters.get(run.cli)?.walls.modelApi;
      say(run, `⚠️ #${run.number} ${displayName(run)}: ${noAnswerYet(run.cli, access && modelApiBase(access, config.cliEnv), words)}`, "a stuck run's line");
    },
    agents: parts.agents,
    trusts: parts.trusts,
    // With workers, runs' CLIs run there; what a CLI lacks is asked where it runs: here, not for workers, whose credentials are their own.
    ...(parts.workers ? { remote: parts.workers } : { lacks: credentialGate(config.cliEnv) }),
  });
  const orchestrator = new Orchestrator({
    store: parts.orchestrationStore,
    subagents,
    out,
    announce: parts.announce,
    progressText: orchestrationProgress,
    // The graph as a picture beside the progress message, where the transport shows pictures.
    progressPicture:
      out.sendPicture && out.editPicture
        ? {
            svg: (orchestration, runOf) => graphSvg(orchestrationGraph(orchestration, runOf)),
            caption: (orchestration) => plain(orchestrationSummary(orchestration)),
            png: async (svg) => (await svgToPng(svg)).png,
          }
        : undefined,
    announceTo: settings.subagents.announceTo,
    retention: { ms: settings.subagents.retentionMinutes * 60_000, perChat: settings.subagents.historyPerChat },
    log,
  });
  return { subagents, orchestrator };
}
