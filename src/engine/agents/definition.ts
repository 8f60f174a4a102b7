import { compact } from '../../kernel/protocols/decoder.ts';
import type { AgentDefinition, AgentSource, LoadedEntry } from './types.ts';
import { toolsInBoth } from './fields.ts';

const SLUG = /^[a-z0-9][a-z0-9-_]{0,63}$/;

export const SLUG_RULE = '1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit';

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

/** What a file named for an invalid slug yields: a problem, and no claim on any slug. */
export function invalidSlug(file: string, slug: string): LoadedEntry {
  return { file, problems: [{ file, message: `invalid agent slug "${slug}": use ${SLUG_RULE}` }] };
}

/** What a file says of an agent: a definition's own fields, its name optional (the slug otherwise). */
export type DefinitionFields = Omit<AgentDefinition, 'slug' | 'name' | 'prompt' | 'source' | 'file'> & { name?: string };

/** The checks that span fields, then the entry: its definition with absent options left out (not `undefined`), or its problems. */
export function assembleDefinition(input: {
  slug: string;
  source: AgentSource;
  file: string;
  prompt: string;
  fields: DefinitionFields;
  /** What the file calls the two tool lists (front matter says `tools`), for the problem text. */
  toolKeys: { allowed: string; disallowed: string };
}): LoadedEntry {
  const { fields, slug, source, file, prompt } = input;
  const both = toolsInBoth(fields.allowedTools, fields.disallowedTools);
  if (both.length) {
    const message = `also in "${input.toolKeys.allowed}": ${both.join(', ')}; a tool cannot be both allowed and disallowed`;
    return { slug, file, problems: [{ file, field: input.toolKeys.disallowed, message }] };
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
  return { slug, file, definition, problems: [] };
}
