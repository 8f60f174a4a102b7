import type { AgentLibrary } from '../engine/agents/library.ts';
import type { AuditLog } from '../kernel/audit/audit-log.ts';
import type { Log } from '../kernel/log/logger.ts';
import type { Outbound } from '../kernel/ports/chat.ts';
import type { ChatStore } from '../kernel/store/chat-store.ts';
import type { AgentQuestions } from '../chat/agent/agent-questions.ts';
import type { ApprovalBroker } from '../work/approvals/approval-broker.ts';
import type { SessionTools } from '../work/tools/session-tools.ts';
import type { BridgeConfig } from './config.ts';

/** What create-app.ts builds first and most groups of parts are built with: each takes what it names of these. */
export interface CommonParts {
  config: BridgeConfig;
  store: ChatStore;
  out: Outbound;
  log: Log;
  audit: AuditLog;
  agents: AgentLibrary;
  /** Whether a directory is trusted now. */
  trusts: (dir: string) => Promise<boolean>;
  approvals: ApprovalBroker;
  questions: AgentQuestions;
  sessionTools: SessionTools;
}
