import { join } from 'node:path';
import type { AgentLibrary } from '../engine/agents/library.ts';
import type { ApprovalBroker } from '../work/approvals/approval-broker.ts';
import type { AuditLog } from '../kernel/audit/audit-log.ts';
import type { ChatPeople } from '../work/access/chat-people.ts';
import { PeopleSeen } from '../work/access/people-seen.ts';
import type { CommandServices } from '../chat/dispatch/command-services.ts';
import type { BridgeConfig } from '../services/config/config.ts';
import { HOOKS_FILE } from '../services/hooks/hooks-file.ts';
import type { Orchestrator } from '../work/orchestration/orchestrator.ts';
import { wholeChatKey } from '../kernel/ports/chat.ts';
import type { TrustedDirectories } from '../engine/projects/trust.ts';
import type { Scheduler } from '../services/schedules/scheduler.ts';
import type { RunReview } from '../work/subagents/run-review.ts';
import type { Subagents } from '../work/subagents/subagents.ts';
import type { DailyBudget, PersonDailyBudget } from '../engine/usage/budget.ts';
import type { UsageLedger } from '../engine/usage/usage-ledger.ts';
import type { WebLogins } from '../surfaces/web/auth/web-logins.ts';
import { webLinks } from '../surfaces/web/web-links.ts';
import type { ShareLinks } from '../surfaces/web/shares/share-links.ts';
import type { Conversations } from '../work/transcripts/conversations.ts';

/** What the commands work with beyond the chat's own session, from the parts built. */
export function commandServices(parts: {
  config: BridgeConfig;
  subagents: Subagents;
  review: RunReview;
  orchestrator: Orchestrator;
  approvals: ApprovalBroker;
  agents: AgentLibrary;
  trust: TrustedDirectories;
  audit: AuditLog;
  ledger: UsageLedger;
  budget: DailyBudget;
  personBudget?: PersonDailyBudget;
  scheduler: Scheduler;
  people: ChatPeople;
  /** The web pages' sign-ins, when they are served; `inApp`: a chat app opens them signed in. */
  web: { sessions: WebLogins; shares: ShareLinks; inApp: boolean } | undefined;
  /** The chats' sessions and runs as conversations, for /export. */
  conversations: Conversations;
  roundTrips: ReadonlyMap<string, () => Promise<number>> | undefined;
}): CommandServices {
  const { config, subagents, web } = parts;
  return {
    subagents,
    review: parts.review,
    orchestrator: parts.orchestrator,
    approvals: parts.approvals,
    agents: parts.agents,
    trust: parts.trust,
    audit: parts.audit,
    ledger: parts.ledger,
    budget: parts.budget,
    personBudget: parts.personBudget,
    ...(config.web && web ? { web: webLinks(config.web.url, web.sessions, web.shares, web.inApp && config.web.url.startsWith('https:')) } : {}),
    scheduler: parts.scheduler,
    people: parts.people,
    seen: new PeopleSeen(),
    conversations: parts.conversations,
    hooks: {
      forChat: (address) => config.hooks.filter((hook) => wholeChatKey(hook.chat) === wholeChatKey(address)),
      ...(config.web ? { url: config.web.url } : {}),
      file: join(config.dataDir, HOOKS_FILE),
    },
    health: {
      roundTrips: parts.roundTrips,
      runs: () => ({ running: subagents.registry.runningTotal(), queued: subagents.registry.queuedTotal() }),
      dataDir: config.dataDir,
    },
  };
}
