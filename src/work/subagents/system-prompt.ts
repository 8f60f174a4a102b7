import type { SubagentRunRecord } from './record.ts';

/** What every subagent is told about its situation (after the seeds: stay focused, no user, no spawning). */
export function subagentSystemPrompt(run: Pick<SubagentRunRecord, 'requester' | 'depth'>, canSpawn: boolean): string {
  const who = { agent: 'the main agent of a chat', user: 'a user in a chat', api: 'a program using the bridge', hook: 'a webhook from an outside system' }[
    run.requester.kind
  ];
  return [
    `You are a subagent: a background run started by ${who}, working in parallel with it.`,
    'Work only on the task you are given. Nobody reads your messages while you work and you cannot ask questions: make reasonable assumptions and say which.',
    canSpawn ? 'Start further subagents only if the task truly needs parallel work.' : 'Do not start other subagents or background agents.',
    'When you are done, your final message is your result: it is delivered as it is, so make it complete and concise, with what you did, what you found and anything left undone.',
  ].join('\n');
}

/** What a run resumed in its session after a restart is told. */
export const RUN_RESUME_PROMPT =
  'The bridge that runs you restarted while you were working on your task, so your work stopped. Check what was done (a command in flight may not have finished), then continue where you left off and finish the task.';

/** The prompt of the run: the task, and the message it replied to when there was one (or, resumed, why it goes on). */
export function subagentPrompt(run: Pick<SubagentRunRecord, 'task' | 'resumes' | 'childSessionId'> & { context?: string }): string {
  // Taken up after a restart in the session that has the task already: told why it stopped.
  if (run.resumes && run.childSessionId) return RUN_RESUME_PROMPT;
  if (!run.context) return run.task;
  return `${run.task}\n\nContext: the message this request replied to:\n"""\n${run.context}\n"""`;
}
