import { join } from 'node:path';
import { z } from 'zod';
import { isObject } from '../../kernel/protocols/decoder.ts';
import { assembleDefinition, invalidSlug, isValidSlug } from './definition.ts';
import { budgetUsd, cliName, icon, maxTurns, mcpServerNames, optionalText, requiredText, skillList, toolList } from './fields.ts';
import { issuesToProblems } from './problem.ts';
import { readBounded } from './safe-fs.ts';
import type { AgentProblem, AgentSource, KnownNames, LoadedEntry } from './types.ts';

/** `<dir>/<slug>/agent.json` plus an optional `prompt.md`: the bridge's own format. */
export async function loadAgentFolder(folder: string, slug: string, source: AgentSource, known: KnownNames): Promise<LoadedEntry> {
  if (!isValidSlug(slug)) return invalidSlug(folder, slug);
  const jsonFile = join(folder, 'agent.json');
  const promptFile = join(folder, 'prompt.md');
  const [jsonRead, promptMd] = await Promise.all([readBounded(jsonFile), readBounded(promptFile)]);
  const fail = (problems: AgentProblem[]): LoadedEntry => ({ slug, file: jsonFile, problems });

  if (jsonRead.status === 'missing') return fail([{ file: folder, message: 'no agent.json in this folder' }]);
  if (jsonRead.status === 'failed') return fail([{ file: jsonFile, message: jsonRead.message }]);
  if (promptMd.status === 'failed') return fail([{ file: promptFile, message: promptMd.message }]);

  let json: unknown;
  try {
    json = JSON.parse(jsonRead.text);
  } catch (error) {
    return fail([{ file: jsonFile, message: `not valid JSON: ${(error as Error).message}` }]);
  }
  const promptText = promptMd.status === 'ok' ? promptMd.text.trim() : undefined;
  const schema = agentJsonSchema(known);
  const parsed = schema.safeParse(json);
  const problems = parsed.success ? [] : issuesToProblems(jsonFile, parsed.error.issues, Object.keys(schema.shape));
  // Not a JSON object: its own problem says enough.
  if (isObject(json)) problems.push(...promptProblems(Object.hasOwn(json, 'prompt'), promptText, jsonFile, promptFile));
  if (problems.length || !parsed.success) return fail(problems);

  const { budget, prompt, ...fields } = parsed.data;
  return assembleDefinition({
    slug,
    source,
    file: jsonFile,
    prompt: prompt ?? promptText ?? '',
    fields: { ...fields, budgetUsd: budget },
    toolKeys: { allowed: 'allowedTools', disallowed: 'disallowedTools' },
  });
}

/** Exactly one of `prompt` and prompt.md. Checked beside the schema, so one look shows every mistake. */
function promptProblems(setsPrompt: boolean, promptText: string | undefined, jsonFile: string, promptFile: string): AgentProblem[] {
  if (setsPrompt && promptText !== undefined) {
    return [{ file: jsonFile, field: 'prompt', message: `also given by ${promptFile}; keep only one` }];
  }
  if (promptText === '') return [{ file: promptFile, message: 'the prompt is empty' }];
  if (!setsPrompt && promptText === undefined) {
    return [{ file: jsonFile, field: 'prompt', message: `required: set it here or write ${promptFile}` }];
  }
  return [];
}

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
