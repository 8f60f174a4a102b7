import { parseMarkdown, truncate } from '../../../work/presentation/format/index.ts';
import { displayName, runtimeMs, type SubagentRunRecord } from '../../../work/subagents/record.ts';
import { spansOf } from '../chat/web-message.ts';

/** A run as the dashboard's table and its page show it: what a person needs, no secrets, no prompts beyond the task's start. */
export type RunView = ReturnType<typeof runView>;

const TASK_CHARS = 400;
const RESULT_CHARS = 4000;

/** The run as shown, with what its record does not hold: its chat's name, and a step's own prompt (its plan has it). */
export function runView(run: SubagentRunRecord, context: { chatName?: string; ownTask?: string } = {}, now = Date.now()) {
  const result = run.result ? truncate(run.result, RESULT_CHARS) : undefined;
  return {
    runId: run.runId,
    number: run.number,
    chat: run.requesterKey,
    /** The chat as its people know it (its title), or its key while nothing named it. */
    chatName: context.chatName ?? run.requesterKey,
    name: displayName(run),
    /** What it was asked: a step's own prompt, without the upstream results its CLI was given too. */
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
    /** The result, and as the chat shows it: its Markdown rendered to styled text, never markup. */
    ...(result ? { result, resultSpans: spansOf(parseMarkdown(result)) } : {}),
    ...(run.error ? { error: run.error } : {}),
  };
}

function worktreeView({ branch, removed, merged, discarded }: NonNullable<SubagentRunRecord['worktree']>) {
  return {
    branch,
    removed: removed === true,
    ...(merged ? { merged: { into: merged.into, by: merged.by } } : {}),
    ...(discarded ? { discarded: { by: discarded.by } } : {}),
  };
}
