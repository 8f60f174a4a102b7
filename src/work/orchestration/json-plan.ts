import { z } from 'zod';
import { describeIssues } from '../../kernel/errors/config-error.ts';
import { defaultStrategy, PlanError, STEP_ID_PATTERN, STEP_ID_RULE, STRATEGIES, type Plan, type PlanStep } from './plan.ts';

const stepId = z.string().regex(STEP_ID_PATTERN, `expected a step id: ${STEP_ID_RULE}`);
const text = z.string().trim().min(1, 'expected a non-empty string');
const stepIds = z.array(stepId);
// Agents write "analyze", "a, b" and ["a", "b"] alike; ids hold no commas or spaces, so all read one way.
const idsInText = z.string().transform((value) => value.split(/[\s,]+/).filter(Boolean));
const dependsOn = z.union([idsInText.pipe(stepIds), stepIds], { error: 'expected a step id or a list of step ids' }).default([]);

// Strict objects: a misspelt `dependsOn` silently dropped would run the step too early.
export const jsonStepSchema = z.strictObject({
  id: stepId.describe('Unique id, used in depends_on'),
  name: text.optional().describe('Display name; defaults to the id'),
  prompt: text.describe("The subagent's task"),
  cli: text.optional(),
  model: text.optional(),
  agent: text.optional(),
  worktree: z.boolean().default(false).describe('Run in a git worktree of its own'),
  depends_on: dependsOn.describe('Ids of the steps whose results this step needs'),
});

export const jsonPlanSchema = z.strictObject({
  strategy: z
    .enum(STRATEGIES, { error: 'expected "parallel", "sequential" or "dag"' })
    .optional()
    .describe('Default: "dag" if any step has depends_on, else "parallel"'),
  name: text.optional(),
  steps: z.array(jsonStepSchema),
});

/** The JSON form, checked field by field; not yet validated as a whole (see validatePlan). */
export function parseJsonPlan(input: unknown): Plan {
  const parsed = jsonPlanSchema.safeParse(input);
  if (!parsed.success) throw new PlanError(describePlanIssues(parsed.error.issues, input));
  const { strategy, name, steps } = parsed.data;
  const plan: Plan = {
    strategy: strategy ?? defaultStrategy(steps.some((step) => step.depends_on.length > 0)),
    steps: steps.map(({ name: stepName, ...step }): PlanStep => ({ ...step, name: stepName ?? step.id })),
  };
  if (name !== undefined) plan.name = name;
  return plan;
}

/** `/orchestrate {…}`: the JSON form as text. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PlanError(`not valid JSON: ${(error as Error).message}`);
  }
}

/** Issues inside a step name the step: `step "backend": field "prompt": …`. */
function describePlanIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  return issues
    .map((issue) => {
      const [head, index, ...rest] = issue.path;
      if (head !== 'steps' || typeof index !== 'number') return describeIssues([issue]);
      return `${stepLabel(input, index)}: ${describeIssues([{ ...issue, path: rest }])}`;
    })
    .join('; ');
}

function stepLabel(input: unknown, index: number): string {
  const steps = (input as { steps?: unknown })?.steps;
  const id = Array.isArray(steps) ? (steps[index] as { id?: unknown } | undefined)?.id : undefined;
  return typeof id === 'string' && id ? `step "${id}"` : `step #${index + 1}`;
}
