import { basename } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { z } from 'zod';
import { splitToolRules } from '../../kernel/policy/tool-rules.ts';
import { commaList as splitCommas } from '../../kernel/settings/variables.ts';
import { assembleDefinition, invalidSlug, isValidSlug } from './definition.ts';
import { budgetUsd, cliName, icon, maxTurns, mcpServerNames, optionalText, requiredText, skillList, toolList } from './fields.ts';
import { issuesToProblems } from './problem.ts';
import { readBounded } from './safe-fs.ts';
import type { AgentProblem, KnownNames, LoadedEntry } from './types.ts';

/** `.claude/agents/<slug>.md`: YAML front matter, then the prompt as the Markdown body. */
export async function loadClaudeAgent(file: string, known: KnownNames): Promise<LoadedEntry> {
  const slug = basename(file).replace(/\.md$/i, '').toLowerCase();
  if (!isValidSlug(slug)) return invalidSlug(file, slug);
  const fail = (problems: AgentProblem[]): LoadedEntry => ({ slug, file, problems });

  const read = await readBounded(file);
  if (read.status === 'missing') return fail([{ file, message: 'disappeared while loading' }]);
  if (read.status === 'failed') return fail([{ file, message: read.message }]);
  const frontMatter = parseFrontMatter(read.text);
  if ('message' in frontMatter) return fail([{ file, message: frontMatter.message }]);

  // A blank `model:` is YAML null: the user left it unset, not set to something invalid.
  const present = Object.fromEntries(Object.entries(frontMatter.data).filter(([, value]) => value !== null));
  const problems: AgentProblem[] = ALIASES.filter(([camel, kebab]) => Object.hasOwn(present, camel) && Object.hasOwn(present, kebab)).map(([camel, kebab]) => ({
    file,
    field: kebab,
    message: `also given as "${camel}"; keep only one`,
  }));
  const parsed = frontMatterSchema(known).safeParse(present);
  if (!parsed.success) problems.push(...issuesToProblems(file, parsed.error.issues));
  const prompt = frontMatter.body.trim();
  if (prompt === '') problems.push({ file, message: 'the prompt (the Markdown after the front matter) is empty' });
  if (problems.length || !parsed.success) return fail(problems);

  const { tools, disallowedTools, 'disallowed-tools': disallowedKebab, maxTurns, 'max-turns': maxTurnsKebab, budget, model, ...same } = parsed.data;
  return assembleDefinition({
    slug,
    source: 'claude',
    file,
    prompt,
    fields: {
      ...same,
      // Claude Code's "inherit" means the caller's model, which is what no model means here.
      model: model === 'inherit' ? undefined : model,
      allowedTools: tools,
      disallowedTools: disallowedTools ?? disallowedKebab,
      maxTurns: maxTurns ?? maxTurnsKebab,
      budgetUsd: budget,
    },
    // The key this file used, so a problem names what the user wrote.
    toolKeys: { allowed: 'tools', disallowed: Object.hasOwn(present, 'disallowed-tools') ? 'disallowed-tools' : 'disallowedTools' },
  });
}

/** The YAML parser, loaded for the first file that has front matter (most starts read none). */
const yaml = (): typeof Yaml => createRequire(import.meta.url)('yaml') as typeof Yaml;

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Splits `---\n<yaml>\n---\n<body>`. A file without the opening line has no front matter: all of
 * it is the body. Line numbers in messages count from the top of the file.
 */
function parseFrontMatter(source: string): { data: Record<string, unknown>; body: string } | { message: string } {
  const text = source.replace(/\r\n?/g, '\n');
  const opening = OPENING.exec(text);
  if (!opening) return { data: {}, body: text };

  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { message: 'the front matter has no closing "---" line' };

  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { prettyErrors: false, lineCounter });
  const error = document.errors[0];
  if (error) {
    const line = lineCounter.linePos(error.pos[0]).line + 1; // + the opening "---"
    return { message: `invalid YAML in the front matter at line ${line}: ${error.message}` };
  }
  let data: unknown;
  try {
    data = document.toJS() ?? {};
  } catch (error) {
    // e.g. too many aliases: yaml refuses to expand a "billion laughs" document
    return { message: `invalid YAML in the front matter: ${(error as Error).message}` };
  }
  if (typeof data !== 'object' || Array.isArray(data)) return { message: 'the front matter must be a YAML mapping of fields' };
  return { data: data as Record<string, unknown>, body };
}

/** A YAML list, or as Claude Code writes it, a comma-separated string (`skills: a, b`; tools split as rules: `tools: Read, Bash(git log:*)`). */
const commaList = <T extends z.ZodType>(element: T, split: (text: string) => string[] = splitCommas) =>
  z.preprocess((value) => (typeof value === 'string' ? split(value) : value), z.array(element, { error: 'expected a list or a comma-separated string' }));
const tools = commaList(toolList.element, splitToolRules);

/** Both spellings that people use; giving both is ambiguous. */
const ALIASES = [
  ['disallowedTools', 'disallowed-tools'],
  ['maxTurns', 'max-turns'],
] as const;

/** Not strict: Claude Code and its users add keys of their own (`color`, ...), which are ignored. */
function frontMatterSchema(known: KnownNames) {
  return z.object({
    name: optionalText,
    description: requiredText,
    tools: tools.optional(),
    disallowedTools: tools.optional(),
    'disallowed-tools': tools.optional(),
    model: optionalText,
    maxTurns: maxTurns.optional(),
    'max-turns': maxTurns.optional(),
    budget: budgetUsd.optional(),
    cli: cliName(known.clis).optional(),
    mcpServers: commaList(mcpServerNames(known.mcpServers).element).optional(),
    skills: commaList(skillList.element).optional(),
    icon: icon.optional(),
    enabled: z.boolean().default(true),
  });
}
