import type { Question } from './types.ts';

/** A run's state in words, and where a run waiting for approval waits: a link to its question. */
export function RunState({ status, question, icon }: { status: string; question: Question | undefined; icon?: string | undefined }) {
  if (question && status === 'running')
    return (
      <a class="waiting" href={`#approvals/${question.id}`} data-testid="waiting" data-question-link={question.id}>
        <span aria-hidden="true">🙋</span> waiting for your answer
      </a>
    );
  return (
    <>
      {icon && <span aria-hidden="true">{icon} </span>}
      <span class="status-word">{status.replace('_', ' ')}</span>
    </>
  );
}
