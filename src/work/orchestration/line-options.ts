import { PlanError } from './plan.ts';

/** What a step line's trailing `[...]` may set. */
export interface StepOptions {
  cli?: string;
  model?: string;
  agent?: string;
  name?: string;
  worktree?: boolean;
}

const VALUE_OPTIONS = ['cli', 'model', 'agent', 'name'] as const;
const EXPECTED = 'cli=…, model=…, agent=…, name="…" or worktree, separated by spaces';

/**
 * `cli=codex model=gpt-5.5 name="Display name" worktree`; commas between them are tolerated.
 * Values are one word or quoted; phones turn "quotes" into “curly” ones, so both are read.
 */
export function parseStepOptions(text: string, line: number): StepOptions {
  const options: StepOptions = {};
  const token = /[\s,]*([A-Za-z]+)(=(?:"([^"]*)"|“([^”]*)”|([^\s,"“”]*)))?(?=[\s,]|$)/y;
  for (let at = 0; /[^\s,]/.test(text.slice(at)); at = token.lastIndex) {
    token.lastIndex = at;
    const match = token.exec(text);
    if (!match) throw new PlanError(`line ${line}: cannot read the options [${text}]: expected ${EXPECTED}`);
    const key = match[1]!.toLowerCase();
    if (Object.hasOwn(options, key)) throw new PlanError(`line ${line}: option "${key}" is given twice`);
    if (key === 'worktree') {
      if (match[2] !== undefined) throw new PlanError(`line ${line}: option "worktree" takes no value`);
      options.worktree = true;
      continue;
    }
    if (!isValueOption(key)) throw new PlanError(`line ${line}: unknown option "${key}": expected ${EXPECTED}`);
    const value = (match[3] ?? match[4] ?? match[5] ?? '').trim();
    if (!value) throw new PlanError(`line ${line}: option "${key}" needs a value, as in ${key}=${key === 'name' ? '"Display name"' : '…'}`);
    options[key] = value;
  }
  return options;
}

function isValueOption(key: string): key is (typeof VALUE_OPTIONS)[number] {
  return (VALUE_OPTIONS as readonly string[]).includes(key);
}
