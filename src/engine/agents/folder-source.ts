import { join } from 'node:path';
import { parseAgentJson } from './agent-json.ts';
import { assembleDefinition } from './definition.ts';
import { readBounded } from './safe-fs.ts';
import { isValidSlug, SLUG_RULE } from './slug.ts';
import type { AgentProblem, AgentSource, KnownNames, LoadedEntry } from './types.ts';

/** `<dir>/<slug>/agent.json` plus an optional `prompt.md`: the bridge's own format. */
export async function loadAgentFolder(folder: string, slug: string, source: AgentSource, known: KnownNames): Promise<LoadedEntry> {
  if (!isValidSlug(slug)) {
    return { file: folder, problems: [{ file: folder, message: `invalid agent slug "${slug}": use ${SLUG_RULE}` }] };
  }
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

  const result = assembleDefinition({
    slug,
    source,
    file: jsonFile,
    prompt: parsed.value.prompt ?? promptText ?? '',
    fields: parsed.value,
    toolKeys: { allowed: 'allowedTools', disallowed: 'disallowedTools' },
  });
  return 'definition' in result ? { slug, file: jsonFile, definition: result.definition, problems: [] } : fail(result.problems);
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
