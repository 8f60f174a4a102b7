import type { Asker } from '../approvals/asker.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';

/**
 * Who is calling the bridge's tools: one secret per main session (or subagent allowed to
 * spawn), and what it may do. A run it spawns belongs to its chat and counts against that
 * chat's limits.
 */
export interface ToolScope {
  address: ChatRef;
  /** 0 for a chat's main session; a subagent's own depth otherwise. */
  depth: number;
  /** The CLI session id of the caller right now, recorded on the runs it spawns. */
  sessionId(): string | undefined;
  /** A main session's: the id of the person whose message the running turn answers (none: a turn nobody typed, or none running). */
  turnBy?(): { id: string; key: string } | undefined;
  /** Whose result hand-back this is: main sessions get results as new turns. */
  kind: 'main' | 'subagent';
  /** The subagent run this secret belongs to, if any. */
  runId?: string;
  /** The tools this secret may list and call. */
  tools: ReadonlySet<string>;
  /** A main session that asks the chat before tools run: who its questions come from, as its turn at work is now. */
  asker?: () => Asker;
  /**
   * For a CLI with no Task tool of its own to hand agents to: the agents spawn_subagent may
   * name, as they are when the tools are listed, for its description.
   */
  agentsNote?: () => Promise<string | undefined>;
}
