import { parseMarkdown, truncate } from '../../../work/presentation/format/index.ts';
import { displayName, runtimeMs, type RunStatus, type SubagentRunRecord } from '../../../work/subagents/record.ts';
import { spansOf, type WebSpan } from '../chat/web-message.ts';

/** A run as the dashboard's table and its page show it: what a person needs, no secrets, no prompts beyond the task's start. */
export interface RunView {
  runId: string;
  number: number;
  chat: string;
  /** The chat as its people know it (its title), or its key while nothing named it. */
  chatName: string;
  name: string;
  /** What it was asked: a step's own prompt, without the upstream results its CLI was given too. */
  task: string;
  cli: string;
  model?: string;
  agent?: string;
  status: RunStatus;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  durationMs: number;
  costUsd?: number;
  worker?: string;
  worktree?: { branch: string; removed: boolean; merged?: { into: string; by: string }; discarded?: { by: string } };
  orchestration?: { id: string; step: string };
  result?: string;
  /** The result as the chat shows it: its Markdown rendered to styled text, never markup. */
  resultSpans?: WebSpan[];
  error?: string;
}

const TASK_CHARS = 400;
const RESULT_CHARS = 4000;

/** The run as shown, with what its record does not hold: its chat's name, and a step's own prompt (its plan has it). */
export function runView(run: SubagentRunRecord, context: { chatName?: string; ownTask?: string } = {}, now = Date.now()): RunView {
  const result = run.result ? truncate(run.result, RESULT_CHARS) : undefined;
  return {
    runId: run.runId,
    number: run.number,
    chat: run.requesterKey,
    chatName: context.chatName ?? run.requesterKey,
    name: displayName(run),
    task: truncate(context.ownTask ?? run.task, TASK_CHARS),
    cli: run.cli,
    model: run.model,
    agent: run.agent,
    status: run.status,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    durationMs: runtimeMs(run, now),
    costUsd: run.costUsd,
    worker: run.worker,
    ...(run.worktree ? { worktree: worktreeView(run.worktree) } : {}),
    orchestration: run.orchestration,
    ...(result ? { result, resultSpans: spansOf(parseMarkdown(result)) } : {}),
    ...(run.error ? { error: run.error } : {}),
  };
}

function worktreeView(worktree: NonNullable<SubagentRunRecord['worktree']>): NonNullable<RunView['worktree']> {
  const { branch, removed, merged, discarded } = worktree;
  return {
    branch,
    removed: removed === true,
    ...(merged ? { merged: { into: merged.into, by: merged.by } } : {}),
    ...(discarded ? { discarded: { by: discarded.by } } : {}),
  };
}
