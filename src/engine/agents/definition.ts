import { compact } from '../../kernel/protocols/decoder.ts';
import type { AgentDefinition, AgentProblem, AgentSource } from './types.ts';
import { toolsInBoth } from './fields.ts';

/** What a file says of an agent: a definition's own fields, its name optional (the slug otherwise). */
export type DefinitionFields = Omit<AgentDefinition, 'slug' | 'name' | 'prompt' | 'source' | 'file'> & { name?: string };

/** The checks that span fields, then the definition with absent options left out (not `undefined`). */
export function assembleDefinition(input: {
  slug: string;
  source: AgentSource;
  file: string;
  prompt: string;
  fields: DefinitionFields;
  /** What the file calls the two tool lists (front matter says `tools`), for the problem text. */
  toolKeys: { allowed: string; disallowed: string };
}): { definition: AgentDefinition } | { problems: AgentProblem[] } {
  const { fields, slug, source, file, prompt } = input;
  const both = toolsInBoth(fields.allowedTools, fields.disallowedTools);
  if (both.length) {
    const message = `also in "${input.toolKeys.allowed}": ${both.join(', ')}; a tool cannot be both allowed and disallowed`;
    return { problems: [{ file, field: input.toolKeys.disallowed, message }] };
  }
  const { name, mcpServers, skills, ...rest } = fields;
  const definition = compact({
    slug,
    name: name ?? slug,
    ...rest,
    prompt,
    source,
    file,
    mcpServers: mcpServers?.length ? mcpServers : undefined,
    skills: skills?.length ? skills : undefined,
  });
  return { definition };
}
