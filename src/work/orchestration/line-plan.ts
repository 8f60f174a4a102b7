import { defaultStrategy, PlanError, STEP_ID_PATTERN, STEP_ID_RULE, STRATEGIES, type Plan, type PlanStep, type Strategy } from './plan.ts';

/*
 * The line form of a plan, for people typing `/orchestrate` in a chat:
 *
 *   strategy: dag
 *   analyze: Read the repo and list the modules
 *   backend <- analyze: Implement the API [cli=codex model=gpt-5.5]
 *   frontend <- analyze: Build the UI [worktree]
 *   integration <- backend, frontend: Wire it all together
 *     and run the end-to-end tests.
 *
 * Grammar, one line at a time (line numbers count from 1, blank lines included):
 *
 *   header        "strategy:" ("parallel" | "sequential" | "dag")   or   "name:" plan name
 *                 Only before the first step, each at most once; keys and strategies in any
 *                 case. So `strategy` and `name` can't be step ids here (they can in JSON).
 *                 Without a strategy: "dag" if any step has "<-", else "parallel".
 *   step          id [ "<-" id { "," id } ] ":" prompt [ "[" options "]" ]
 *                 Ids: letters, digits, "_" and "-", starting with a letter, at most 32.
 *                 Dependencies may be separated by commas or spaces. The prompt is the rest
 *                 of the line; it may be empty if continuation lines follow.
 *   options       A "[...]" ending the step line (not a continuation line):
 *                 cli=X  model=X  agent=X  name="Display name"  worktree
 *                 Values are one word or "quoted". A prompt that should itself end with
 *                 "[...]" needs something after it, e.g. a full stop.
 *   continuation  A line starting with a space or tab adds a line to the previous step's
 *                 prompt; the smallest indentation of those lines is removed. Blank lines
 *                 between continuation lines are kept.
 *   comment       A line starting with "#" in the first column. (Indented lines are
 *                 continuations, so a prompt may hold "#".)
 *   blank         Ignored.
 */

interface Draft {
  step: PlanStep;
  line: number;
  hasDependencies: boolean;
  continuation: string[];
}

interface Headers {
  strategy?: Strategy;
  name?: string;
}

const HEADER = /^(strategy|name)\s*:(.*)$/i;
const STEP = /^([^\s:<,]+)\s*(?:<-([^:]*))?:(.*)$/;
const TRAILING_OPTIONS = /\[([^[\]]*)\]\s*$/;

/** The line form, parsed; not yet validated as a whole (see validatePlan). */
export function parseLinePlan(text: string): Plan {
  const drafts: Draft[] = [];
  const headers: Headers = {};
  let blanks = 0;

  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    const current = drafts.at(-1);
    if (!content.trim()) {
      if (current?.continuation.length) blanks++;
      return;
    }
    if (/^[ \t]/.test(content)) {
      if (!current) throw new PlanError(`line ${line}: indented line with no step above it (indented lines continue the previous step's prompt)`);
      current.continuation.push(...Array<string>(blanks).fill(''), content.trimEnd());
      blanks = 0;
      return;
    }
    blanks = 0;
    if (content.startsWith('#')) return;
    const header = HEADER.exec(content);
    if (header) return readHeader(headers, header[1]!.toLowerCase() as keyof Headers, header[2]!.trim(), line, drafts.length > 0);
    drafts.push(readStep(content, line));
  });

  const strategy = headers.strategy ?? defaultStrategy(drafts.some((draft) => draft.hasDependencies));
  return { strategy, steps: drafts.map(finishStep), ...(headers.name !== undefined ? { name: headers.name } : {}) };
}

function readHeader(headers: Headers, key: keyof Headers, value: string, line: number, afterSteps: boolean): void {
  if (afterSteps) throw new PlanError(`line ${line}: "${key}:" must come before the first step`);
  if (headers[key] !== undefined) throw new PlanError(`line ${line}: "${key}:" is given twice`);
  if (!value) throw new PlanError(`line ${line}: "${key}:" needs a value`);
  if (key === 'name') {
    headers.name = value;
    return;
  }
  const strategy = STRATEGIES.find((known) => known === value.toLowerCase());
  if (!strategy) throw new PlanError(`line ${line}: unknown strategy "${value}": expected parallel, sequential or dag`);
  headers.strategy = strategy;
}

function readStep(content: string, line: number): Draft {
  const match = STEP.exec(content);
  if (!match) {
    const got = content.length > 60 ? `${content.slice(0, 60)}…` : content;
    throw new PlanError(`line ${line}: expected a step ("id: prompt" or "id <- dependency, …: prompt"), got "${got}"`);
  }
  const id = checkId(match[1]!, line);
  const dependencies = match[2]?.split(/[\s,]+/).filter(Boolean) ?? [];
  if (match[2] !== undefined && dependencies.length === 0) throw new PlanError(`line ${line}: expected step ids after "<-"`);
  dependencies.forEach((dep) => checkId(dep, line));

  let prompt = match[3]!;
  const step: PlanStep = { id, name: id, prompt: '', worktree: false, depends_on: dependencies };
  const options = TRAILING_OPTIONS.exec(prompt);
  if (options) {
    prompt = prompt.slice(0, options.index);
    Object.assign(step, parseStepOptions(options[1]!, line));
  }
  step.prompt = prompt.trim();
  return { step, line, hasDependencies: match[2] !== undefined, continuation: [] };
}

function checkId(id: string, line: number): string {
  if (!STEP_ID_PATTERN.test(id)) throw new PlanError(`line ${line}: "${id}" is not a valid step id: use ${STEP_ID_RULE}`);
  return id;
}

function finishStep({ step, line, continuation }: Draft): PlanStep {
  const indent = Math.min(...continuation.filter(Boolean).map((content) => /^[ \t]*/.exec(content)![0].length));
  // The first continuation line keeps its indentation relative to the others (code, lists).
  const lines = [step.prompt, ...continuation.map((content) => content.slice(indent))].filter((content, i) => i > 0 || content);
  const prompt = lines.join('\n');
  if (!prompt.trim()) throw new PlanError(`line ${line}: step "${step.id}" has no prompt`);
  return { ...step, prompt };
}

const VALUE_OPTIONS = ['cli', 'model', 'agent', 'name'] as const;
/** What a step line's trailing `[...]` may set. */
type StepOptions = Partial<Pick<PlanStep, (typeof VALUE_OPTIONS)[number] | 'worktree'>>;
const EXPECTED = 'cli=…, model=…, agent=…, name="…" or worktree, separated by spaces';

/**
 * `cli=codex model=gpt-5.5 name="Display name" worktree`; commas between them are tolerated.
 * Values are one word or quoted; phones turn "quotes" into “curly” ones, so both are read.
 */
function parseStepOptions(text: string, line: number): StepOptions {
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
    if (!(VALUE_OPTIONS as readonly string[]).includes(key)) throw new PlanError(`line ${line}: unknown option "${key}": expected ${EXPECTED}`);
    const value = (match[3] ?? match[4] ?? match[5] ?? '').trim();
    if (!value) throw new PlanError(`line ${line}: option "${key}" needs a value, as in ${key}=${key === 'name' ? '"Display name"' : '…'}`);
    options[key as (typeof VALUE_OPTIONS)[number]] = value;
  }
  return options;
}
