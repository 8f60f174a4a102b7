import type { AgentLibrary } from '../../engine/agents/library.ts';
import type { ApprovalBroker } from '../../work/approvals/approval-broker.ts';
import type { AuditLog } from '../../kernel/audit/audit-log.ts';
import type { Orchestrator } from '../../work/orchestration/orchestrator.ts';
import type { TrustedDirectories } from '../../engine/projects/trust.ts';
import type { Subagents } from '../../work/subagents/subagents.ts';
import type { RunReview } from '../../work/subagents/run-review.ts';
import type { DailyBudget } from '../../engine/usage/budget.ts';
import type { UsageLedger } from '../../engine/usage/usage-ledger.ts';
import type { WebLinks } from '../session/web-links.ts';
import type { Scheduler } from '../../services/schedules/scheduler.ts';
import type { Hook } from '../../services/hooks/hooks-file.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { Conversations } from '../../work/transcripts/conversations.ts';
import type { ChatPeople } from '../../work/access/chat-people.ts';
import type { PeopleSeen } from '../../work/access/people-seen.ts';

/** The webhooks (/hooks): those of a chat, and where they are reached. */
export interface HookDirectory {
  /** The hooks whose turns and runs go to this chat (any of its topics). */
  forChat(address: ChatRef): Hook[];
  /** BRIDGE_WEB_URL; none: the web server is off, and no hook is reached. */
  url?: string;
  /** Where they are defined. */
  file: string;
}

/** What /status tells of the bridge's own health. */
export interface HealthSources {
  /** Each served transport's round trip to its service, by id (none: no service, as in the console). */
  roundTrips?: ReadonlyMap<string, () => Promise<number>>;
  /** Subagent runs across every chat. */
  runs: () => { running: number; queued: number };
  dataDir: string;
}

/** The parts of the bridge the commands work with, built once by `create-app.ts`. */
export interface CommandServices {
  subagents: Subagents;
  /** Diff, merge and discard of runs that worked in a worktree: the same calls for the chat and a web page. */
  review: RunReview;
  orchestrator: Orchestrator;
  /** The questions waiting in the chat, shown by /subagents info. */
  approvals: Pick<ApprovalBroker, 'waitingFor'>;
  agents: AgentLibrary;
  trust: TrustedDirectories;
  audit: AuditLog;
  ledger: UsageLedger;
  budget: DailyBudget;
  /** Each person's daily budget across chats (BRIDGE_PERSON_DAILY_BUDGET_USD). */
  personBudget?: DailyBudget;
  health: HealthSources;
  /** The chats' schedules (/every, /at, /schedules). */
  scheduler: Scheduler;
  /** The webhooks of hooks.json. */
  hooks: HookDirectory;
  /** The chats' sessions and runs as conversations (/export). */
  conversations: Conversations;
  /** Who a chat's admins allowed or denied there (/allow, /deny). */
  people: ChatPeople;
  /** The names of people who wrote in each chat: how /allow finds someone by name. */
  seen: PeopleSeen;
  /** The dashboard's links, when the web server is on (BRIDGE_WEB_ADDR). */
  web?: WebLinks;
}
