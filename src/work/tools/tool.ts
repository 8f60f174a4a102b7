import type { z } from 'zod';
import type { ApprovalBroker } from '../approvals/approval-broker.ts';
import type { Orchestrator } from '../orchestration/orchestrator.ts';
import type { ChatRef, Outbound } from '../../kernel/ports/chat.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { Subagents } from '../subagents/subagents.ts';
import type { ToolScope } from './scope.ts';
import type { Scheduler } from '../../services/schedules/scheduler.ts';

export interface ToolResult {
  text: string;
  isError: boolean;
}

export const ok = (text: string): ToolResult => ({ text, isError: false });
export const error = (text: string): ToolResult => ({ text, isError: true });

/**
 * Who is offered a tool: sessions that may delegate (main sessions, and runs above the depth
 * limit), sessions whose tool calls are approved from the chat (Claude Code's permission
 * prompt), a chat's main session only (its own follow-ups), or every session (its own files
 * to its chat).
 */
export type ToolGrant = 'delegate' | 'approve' | 'main' | 'everyone';

/** Told in the chat when an agent starts a run, so people see it (and can stop it). */
export type SpawnNotice = (run: SubagentRunRecord, queuePosition: number) => void;

/** The parts of the bridge the tools work with, built once by `create-app.ts`. */
export interface ToolDeps {
  /** The bridge's data directory, which send_file never sends from. */
  dataDir: string;
  subagents: Subagents;
  approvals: ApprovalBroker;
  orchestrator: Orchestrator;
  notice: SpawnNotice;
  /** Where send_file sends. */
  out: Outbound;
  /** The chats' schedules: the main agent's follow-ups. */
  scheduler: Scheduler;
  /** The working directory and CLI of a chat: what its main agent's runs default to. */
  chatDefaults: (address: ChatRef) => { cwd: string; cli: string };
}

/**
 * An MCP tool of the bridge, whole: its name and description, its arguments as a zod schema
 * (the JSON Schema agents see is derived from it, and its arguments arrive checked and
 * typed), who is offered it, and what calling it does. Every failure is a result the agent
 * can read, never an exception. `manifest.json`'s `tools` are generated from these.
 */
export interface BridgeTool<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly grant: ToolGrant;
  readonly input: Input;
  run(args: z.infer<Input>, scope: ToolScope, deps: ToolDeps): Promise<ToolResult>;
}

/** A tool, its arguments' type inferred from its schema. */
export function defineTool<Input extends z.ZodObject>(tool: BridgeTool<Input>): BridgeTool<Input> {
  return tool;
}
