import { z } from 'zod';
import { splitToolRules } from '../../kernel/policy/tool-rules.ts';
import type { DefinitionFields } from './definition.ts';
import { budgetUsd, cliName, icon, maxTurns, mcpServerNames, optionalText, requiredText, skillList, toolList } from './fields.ts';
import { issuesToProblems } from './problem.ts';
import type { AgentProblem, KnownNames } from './types.ts';

/** Claude Code writes `tools: Read, Bash(git log:*)`; a YAML list is accepted too. */
const tools = z.preprocess(
  (value) => (typeof value === 'string' ? splitToolRules(value) : value),
  z.array(toolList.element, { error: 'expected a list or a comma-separated string' }),
);

/** `skills: a, b` or a YAML list, like tools. */
const commaList = <T extends z.ZodType>(element: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
        : value,
    z.array(element, { error: 'expected a list or a comma-separated string' }),
  );

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

export interface ClaudeFields {
  fields: DefinitionFields;
  /** The key this file used, so a problem names what the user wrote. */
  disallowedKey: string;
}

export function parseClaudeFields(data: Record<string, unknown>, file: string, known: KnownNames): { value: ClaudeFields } | { problems: AgentProblem[] } {
  // A blank `model:` is YAML null: the user left it unset, not set to something invalid.
  const present = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null));
  const problems: AgentProblem[] = ALIASES.filter(([camel, kebab]) => Object.hasOwn(present, camel) && Object.hasOwn(present, kebab)).map(([camel, kebab]) => ({
    file,
    field: kebab,
    message: `also given as "${camel}"; keep only one`,
  }));
  const parsed = frontMatterSchema(known).safeParse(present);
  if (!parsed.success) problems.push(...issuesToProblems(file, parsed.error.issues));
  if (problems.length || !parsed.success) return { problems };

  const fm = parsed.data;
  return {
    value: {
      fields: {
        name: fm.name,
        description: fm.description,
        // Claude Code's "inherit" means the caller's model, which is what no model means here.
        model: fm.model === 'inherit' ? undefined : fm.model,
        cli: fm.cli,
        allowedTools: fm.tools,
        disallowedTools: fm.disallowedTools ?? fm['disallowed-tools'],
        maxTurns: fm.maxTurns ?? fm['max-turns'],
        budgetUsd: fm.budget,
        mcpServers: fm.mcpServers,
        skills: fm.skills,
        icon: fm.icon,
        enabled: fm.enabled,
      },
      disallowedKey: Object.hasOwn(present, 'disallowed-tools') ? 'disallowed-tools' : 'disallowedTools',
    },
  };
}
