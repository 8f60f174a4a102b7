import { parseJsonPlan, parseJsonText } from './json-plan.ts';
import { parseLinePlan } from './line-plan.ts';
import type { Plan } from './plan.ts';
import { validatePlan } from './validate.ts';

/**
 * A validated plan from either source: `/orchestrate` text (the JSON form when it starts with
 * "{", else the line form) or the `create_orchestration` tool's arguments (already JSON).
 * Throws a PlanError to show to whoever wrote the plan.
 */
export function parsePlan(input: unknown): Plan {
  if (typeof input !== 'string') return validatePlan(parseJsonPlan(input));
  // The line form gets the text untrimmed, so its errors' line numbers match what was sent.
  return validatePlan(input.trimStart().startsWith('{') ? parseJsonPlan(parseJsonText(input)) : parseLinePlan(input));
}
