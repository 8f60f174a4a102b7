// The API's shapes, as the bridge defines them: one definition on both sides.
export type { RunView } from '../../src/surfaces/web/views/run-view.ts';
export type { OrchestrationView } from '../../src/surfaces/web/views/orchestration-view.ts';
export type { WebMessage, WebSpan } from '../../src/surfaces/web/chat/web-message.ts';
export type { AuditEntry } from '../../src/kernel/audit/audit-log.ts';
export type { Tally } from '../../src/engine/usage/usage-ledger.ts';

export interface Me {
  identity: string;
  name: string;
}

export interface Question {
  id: string;
  chatKey: string;
  chatName: string;
  /** The run asking; none: a chat's main session. */
  runId?: string;
  title: string;
  tool: string;
  input: string;
  askedAt: number;
  /** What "Allow <tool> for this …" covers; none: it may not be given (a turn nobody typed, a call needing several people). */
  grant?: 'run' | 'session';
  /** A rule of the tool policy needs several people's Allow: which, how many, and who has approved so far. */
  approvals?: { rule: string; needed: number; by: string[] };
}

export type { SharedView } from '../../src/surfaces/web/views/shared-view.ts';
