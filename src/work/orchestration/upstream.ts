import { stepById } from './graph.ts';
import type { Plan, PlanStep } from './plan.ts';
import type { StepStates } from './state.ts';

/**
 * The prompt a step's CLI receives: the results of the steps it depends on (those that
 * completed, in `depends_on` order), each in its own delimited section and cut to
 * `maxSummaryChars`, then the step's own prompt. A step without dependencies gets its prompt
 * as written.
 */
export function promptWithUpstream(plan: Plan, stepId: string, states: StepStates, maxSummaryChars = 4000): string {
  const step = stepById(plan, stepId);
  const sections = step.depends_on
    .filter((dep) => states[dep]?.status === 'completed')
    .map((dep) => section(stepById(plan, dep), states[dep]?.summary ?? '', maxSummaryChars));
  if (sections.length === 0) return step.prompt;
  return ['Results from the steps this one depends on:', ...sections, `Your task:\n${step.prompt}`].join('\n\n');
}

function section(step: PlanStep, summary: string, max: number): string {
  const title = step.name === step.id ? `Step "${step.id}"` : `Step "${step.id}" (${step.name})`;
  const text = summary.trim();
  return [`=== ${title} ===`, text ? cut(text, max) : '(no summary)', `=== End of step "${step.id}" ===`].join('\n');
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Don't leave half of a surrogate pair at the end.
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}\n[… cut: the first ${end} of ${text.length} characters]`;
}
