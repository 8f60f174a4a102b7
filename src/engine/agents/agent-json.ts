import { z } from 'zod';
import { isObject } from '../../kernel/protocols/decoder.ts';
import type { DefinitionFields } from './definition.ts';
import { budgetUsd, cliName, icon, maxTurns, mcpServerNames, optionalText, requiredText, skillList, toolList } from './fields.ts';
import { issuesToProblems } from './problem.ts';
import type { AgentProblem, KnownNames } from './types.ts';

/** Strict: in a file made for the bridge, an unknown key is a typo worth reporting. */
function agentJsonSchema(known: KnownNames) {
  return z.strictObject({
    name: optionalText,
    description: requiredText,
    prompt: optionalText,
    model: optionalText,
    cli: cliName(known.clis).optional(),
    allowedTools: toolList.optional(),
    disallowedTools: toolList.optional(),
    maxTurns: maxTurns.optional(),
    budget: budgetUsd.optional(),
    mcpServers: mcpServerNames(known.mcpServers).optional(),
    skills: skillList.optional(),
    icon: icon.optional(),
    enabled: z.boolean().default(true),
  });
}

export type AgentJson = DefinitionFields & { prompt?: string };

export interface ParsedAgentJson {
  value?: AgentJson;
  problems: AgentProblem[];
  /** Whether the file sets `prompt`, valid or not; undefined when it is not a JSON object at all. */
  setsPrompt?: boolean;
}

export function parseAgentJson(text: string, file: string, known: KnownNames): ParsedAgentJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [{ file, message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const setsPrompt = isObject(json) ? Object.hasOwn(json, 'prompt') : undefined;
  const schema = agentJsonSchema(known);
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { problems: issuesToProblems(file, parsed.error.issues, Object.keys(schema.shape)), setsPrompt };
  const { budget, ...fields } = parsed.data;
  return { value: { ...fields, budgetUsd: budget }, problems: [], setsPrompt };
}
