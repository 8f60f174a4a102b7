import type { AgentDefinition, AgentProblem, AgentSource } from './types.ts';
import { toolsInBoth } from './fields.ts';

export interface DefinitionFields {
  name?: string;
  description: string;
  model?: string;
  cli?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  /** The file's `budget`: the most one run of it may cost, in US dollars. */
  budgetUsd?: number;
  mcpServers?: string[];
  skills?: string[];
  icon?: string;
  enabled: boolean;
}

export interface DefinitionInput {
  slug: string;
  source: AgentSource;
  file: string;
  prompt: string;
  fields: DefinitionFields;
  /** What the file calls the two tool lists (front matter says `tools`), for the problem text. */
  toolKeys: { allowed: string; disallowed: string };
}

/** The checks that span fields, then the definition with absent options left out (not `undefined`). */
export function assembleDefinition(input: DefinitionInput): { definition: AgentDefinition } | { problems: AgentProblem[] } {
  const { fields } = input;
  const both = toolsInBoth(fields.allowedTools, fields.disallowedTools);
  if (both.length) {
    const message = `also in "${input.toolKeys.allowed}": ${both.join(', ')}; a tool cannot be both allowed and disallowed`;
    return { problems: [{ file: input.file, field: input.toolKeys.disallowed, message }] };
  }
  const definition: AgentDefinition = {
    slug: input.slug,
    name: fields.name ?? input.slug,
    description: fields.description,
    prompt: input.prompt,
    enabled: fields.enabled,
    source: input.source,
    file: input.file,
  };
  if (fields.model !== undefined) definition.model = fields.model;
  if (fields.cli !== undefined) definition.cli = fields.cli;
  if (fields.allowedTools !== undefined) definition.allowedTools = fields.allowedTools;
  if (fields.disallowedTools !== undefined) definition.disallowedTools = fields.disallowedTools;
  if (fields.maxTurns !== undefined) definition.maxTurns = fields.maxTurns;
  if (fields.budgetUsd !== undefined) definition.budgetUsd = fields.budgetUsd;
  if (fields.mcpServers?.length) definition.mcpServers = fields.mcpServers;
  if (fields.skills?.length) definition.skills = fields.skills;
  if (fields.icon !== undefined) definition.icon = fields.icon;
  return { definition };
}
