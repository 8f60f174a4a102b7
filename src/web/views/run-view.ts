import { truncate } from '../../presentation/format/index.ts';
import { displayName, runtimeMs, type RunStatus, type SubagentRunRecord } from '../../subagents/record.ts';

/** A run as the dashboard's table and its page show it: what a person needs, no secrets, no prompts beyond the task's start. */
export interface RunView {
  runId: string;
  number: number;
  chat: string;
  name: string;
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
  error?: string;
}

const TASK_CHARS = 400;
const RESULT_CHARS = 4000;

export function runView(run: SubagentRunRecord, now = Date.now()): RunView {
  return {
    runId: run.runId,
    number: run.number,
    chat: run.requesterKey,
    name: displayName(run),
    task: truncate(run.task, TASK_CHARS),
    cli: run.cli,
    ...(run.model ? { model: run.model } : {}),
    ...(run.agent ? { agent: run.agent } : {}),
    status: run.status,
    createdAt: run.createdAt,
    ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
    ...(run.endedAt !== undefined ? { endedAt: run.endedAt } : {}),
    durationMs: runtimeMs(run, now),
    ...(run.costUsd !== undefined ? { costUsd: run.costUsd } : {}),
    ...(run.worker ? { worker: run.worker } : {}),
    ...(run.worktree ? { worktree: worktreeView(run.worktree) } : {}),
    ...(run.orchestration ? { orchestration: run.orchestration } : {}),
    ...(run.result ? { result: truncate(run.result, RESULT_CHARS) } : {}),
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
