import { join } from 'node:path';
import { z } from 'zod';
import { isObject } from '../../kernel/protocols/decoder.ts';
import { assembleDefinition, invalidSlug, isValidSlug, type DefinitionFields } from './definition.ts';
import { budgetUsd, cliName, icon, maxTurns, mcpServerNames, optionalText, requiredText, skillList, toolList } from './fields.ts';
import { issuesToProblems } from './problem.ts';
import { readBounded } from './safe-fs.ts';
import type { AgentProblem, AgentSource, KnownNames, LoadedEntry } from './types.ts';

/** `<dir>/<slug>/agent.json` plus an optional `prompt.md`: the bridge's own format. */
export async function loadAgentFolder(folder: string, slug: string, source: AgentSource, known: KnownNames): Promise<LoadedEntry> {
  if (!isValidSlug(slug)) return invalidSlug(folder, slug);
  const jsonFile = join(folder, 'agent.json');
  const promptFile = join(folder, 'prompt.md');
  const [json, promptMd] = await Promise.all([readBounded(jsonFile), readBounded(promptFile)]);
  const fail = (problems: AgentProblem[]): LoadedEntry => ({ slug, file: jsonFile, problems });

  if (json.status === 'missing') return fail([{ file: folder, message: 'no agent.json in this folder' }]);
  if (json.status === 'failed') return fail([{ file: jsonFile, message: json.message }]);
  if (promptMd.status === 'failed') return fail([{ file: promptFile, message: promptMd.message }]);

  const promptText = promptMd.status === 'ok' ? promptMd.text.trim() : undefined;
  const parsed = parseAgentJson(json.text, jsonFile, known);
  const problems = [...parsed.problems, ...promptProblems(parsed.setsPrompt, promptText, jsonFile, promptFile)];
  if (problems.length || !parsed.value) return fail(problems);

  return assembleDefinition({
    slug,
    source,
    file: jsonFile,
    prompt: parsed.value.prompt ?? promptText ?? '',
    fields: parsed.value,
    toolKeys: { allowed: 'allowedTools', disallowed: 'disallowedTools' },
  });
}

/** Exactly one of `prompt` and prompt.md. Checked beside the schema, so one look shows every mistake. */
function promptProblems(setsPrompt: boolean | undefined, promptText: string | undefined, jsonFile: string, promptFile: string): AgentProblem[] {
  if (setsPrompt === undefined) return []; // not a JSON object: its own problem says enough
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

type AgentJson = DefinitionFields & { prompt?: string };

interface ParsedAgentJson {
  value?: AgentJson;
  problems: AgentProblem[];
  /** Whether the file sets `prompt`, valid or not; undefined when it is not a JSON object at all. */
  setsPrompt?: boolean;
}

function parseAgentJson(text: string, file: string, known: KnownNames): ParsedAgentJson {
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
