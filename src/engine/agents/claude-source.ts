import { basename } from 'node:path';
import { parseClaudeFields } from './claude-fields.ts';
import { assembleDefinition } from './definition.ts';
import { parseFrontMatter } from './front-matter.ts';
import { readBounded } from './safe-fs.ts';
import { isValidSlug, SLUG_RULE } from './slug.ts';
import type { AgentProblem, KnownNames, LoadedEntry } from './types.ts';

/** `.claude/agents/<slug>.md`: YAML front matter, then the prompt as the Markdown body. */
export async function loadClaudeAgent(file: string, known: KnownNames): Promise<LoadedEntry> {
  const slug = basename(file).replace(/\.md$/i, '').toLowerCase();
  if (!isValidSlug(slug)) return { file, problems: [{ file, message: `invalid agent slug "${slug}": use ${SLUG_RULE}` }] };
  const fail = (problems: AgentProblem[]): LoadedEntry => ({ slug, file, problems });

  const read = await readBounded(file);
  if (read.status === 'missing') return fail([{ file, message: 'disappeared while loading' }]);
  if (read.status === 'failed') return fail([{ file, message: read.message }]);
  const frontMatter = parseFrontMatter(read.text);
  if ('message' in frontMatter) return fail([{ file, message: frontMatter.message }]);

  const parsed = parseClaudeFields(frontMatter.value.data, file, known);
  const prompt = frontMatter.value.body.trim();
  const problems = 'problems' in parsed ? [...parsed.problems] : [];
  if (prompt === '') problems.push({ file, message: 'the prompt (the Markdown after the front matter) is empty' });
  if (problems.length || !('value' in parsed)) return fail(problems);

  const result = assembleDefinition({
    slug,
    source: 'claude',
    file,
    prompt,
    fields: parsed.value.fields,
    toolKeys: { allowed: 'tools', disallowed: parsed.value.disallowedKey },
  });
  return 'definition' in result ? { slug, file, definition: result.definition, problems: [] } : fail(result.problems);
}
