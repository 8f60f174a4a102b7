import { z } from 'zod';
import { parsePlan } from '../../orchestration/parse.ts';
import { PlanError } from '../../orchestration/plan.ts';
import { origin } from '../runs.ts';
import { defineTool, error, ok } from '../tool.ts';

/** A plan as an object; checked in full by parsePlan, which says what is wrong in words. */
const planObject = z.looseObject({
  name: z.string().optional(),
  strategy: z.enum(['parallel', 'sequential', 'dag']).optional(),
  steps: z
    .array(
      z.looseObject({
        id: z.string(),
        name: z.string().optional(),
        prompt: z.string(),
        cli: z.string().optional(),
        model: z.string().optional(),
        agent: z.string().optional(),
        worktree: z.boolean().optional(),
        depends_on: z.union([z.string(), z.array(z.string())]).optional(),
      }),
    )
    .min(1)
    .max(50),
});

export const createOrchestration = defineTool({
  name: 'create_orchestration',
  description:
    "Start an orchestration: several subagent steps with dependencies (strategy parallel, sequential or dag), each finished step's result handed to the steps that depend on it. Validated before anything runs; returns at once, and the outcome arrives later by itself as a new message.",
  grant: 'delegate',
  input: z.strictObject({
    plan: z
      .union([z.string().min(1), planObject])
      .describe(
        'The plan: an object as below, or the line form as a string ("id <- dep1, dep2: prompt [cli=X model=Y agent=Z worktree]", one step a line, optional "strategy: dag" first).',
      ),
  }),
  async run({ plan: written }, scope, deps) {
    let plan;
    try {
      plan = parsePlan(written);
    } catch (caught) {
      if (caught instanceof PlanError) return error(`The plan was not started: ${caught.message}`);
      throw caught;
    }
    const created = await deps.orchestrator.create(plan, origin(scope, deps));
    if (!created.ok) return error(`The plan was not started: ${created.error}`);
    const back = scope.kind === 'main' ? ' When it ends, its outcome will arrive by itself as a new message in this conversation.' : '';
    return ok(
      `Orchestration #${created.record.number} started: id ${created.record.id}, ${plan.steps.length} steps (${plan.strategy}). Progress is shown in the chat.${back}`,
    );
  },
});
