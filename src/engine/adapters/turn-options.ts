import type { CliAgents } from '../agents/cli-agents.ts';
import { ruleTool } from '../../kernel/policy/tool-rules.ts';

/** The bridge's MCP endpoint for a session: how its CLI reaches the bridge's tools. */
export interface McpAccess {
  /** A config file (0600) in the CLI's own format, for CLIs that read one (Claude Code's --mcp-config). */
  configFile?: string;
  /** The endpoint, without the secret. */
  url: string;
  serverName: string;
  /**
   * The session's secret: never a placeholder, so never on a command line where `ps` shows it.
   * It reaches the CLI in its config file, or in the environment variable MCP_TOKEN_VARIABLE.
   */
  token: string;
}

/** Where a CLI that takes flags (codex: `bearer_token_env_var`) finds the session's MCP secret. */
export const MCP_TOKEN_VARIABLE = 'JSONL_BRIDGE_MCP_TOKEN';

/**
 * One optional option of a turn: the placeholders its adapter template may use, how a value
 * fills them, whether a turn wants it at all, and what it is called in an error.
 */
interface TurnOptionDef<T> {
  placeholders: readonly string[];
  fill: (value: T, adapter: { toolSeparator: string }) => Record<string, string | undefined>;
  wanted: (value: T) => boolean;
  describe: string;
}

const text = (placeholder: string, describe: string): TurnOptionDef<string> => ({
  placeholders: [placeholder],
  fill: (value) => ({ [placeholder]: value }),
  wanted: (value) => value !== '',
  describe,
});
/**
 * A list of tools or permission rules (`Bash(git log:*)`): `{name}` is the list as written,
 * `{nameNames}` the tools it is about (`Bash`), for flags that take bare tool names.
 */
const toolList = (placeholder: string, describe: string): TurnOptionDef<string[]> => ({
  placeholders: [placeholder, `${placeholder}Names`],
  fill: (value, adapter) => ({
    [placeholder]: value.join(adapter.toolSeparator),
    [`${placeholder}Names`]: [...new Set(value.map(ruleTool))].join(adapter.toolSeparator),
  }),
  wanted: (value) => value.length > 0,
  describe,
});

/**
 * Every option a turn can ask of a CLI, in the order their flags are added (the prompt always
 * comes last: codex needs `resume ID PROMPT` at the end). This table is the one place an
 * option is declared: the adapter schema's `options`, the placeholders, `TurnOptions`, argv
 * building and the "does this CLI support it" check all come from it.
 */
export const TURN_OPTIONS = {
  cwd: text('cwd', 'a working directory'),
  model: text('model', 'choosing a model'),
  systemPrompt: text('systemPrompt', 'a system prompt'),
  mcp: {
    placeholders: ['mcpConfigFile', 'mcpUrl', 'mcpServerName'],
    fill: (value) => ({ mcpConfigFile: value.configFile, mcpUrl: value.url, mcpServerName: value.serverName }),
    wanted: () => true,
    describe: 'MCP tools',
  } satisfies TurnOptionDef<McpAccess>,
  allowedTools: toolList('allowedTools', 'an allowed-tools list'),
  disallowedTools: toolList('disallowedTools', 'a disallowed-tools list'),
  maxTurns: {
    placeholders: ['maxTurns'],
    fill: (value) => ({ maxTurns: String(value) }),
    wanted: () => true,
    describe: 'a turn limit',
  } satisfies TurnOptionDef<number>,
  /**
   * Agent definitions for the CLI's own Task tool (Claude Code's `--agents`), as a JSON file
   * the turn writes in its own owner-only folder (prompts and MCP settings stay off the
   * command line): `{agentsFile}` is its path.
   */
  agents: {
    placeholders: ['agentsFile'],
    fill: () => ({}),
    wanted: (value) => Object.keys(value).length > 0,
    describe: 'agent definitions for its Task tool',
  } satisfies TurnOptionDef<CliAgents>,
};

export type TurnOptionName = keyof typeof TURN_OPTIONS;
export const TURN_OPTION_NAMES = Object.keys(TURN_OPTIONS) as TurnOptionName[];

/** What a turn asks of its CLI beyond the prompt; absent options leave their flags out. */
export type TurnOptions = { [K in TurnOptionName]?: (typeof TURN_OPTIONS)[K] extends TurnOptionDef<infer T> ? T : never };

/** Options a CLI without the flag simply runs without: the process's own working directory is the CLI's. */
const COURTESY: ReadonlySet<TurnOptionName> = new Set(['cwd']);

/** The options this turn wants, in argv order. */
export function wantedOptions(options: TurnOptions): TurnOptionName[] {
  return TURN_OPTION_NAMES.filter((name) => {
    const value = options[name];
    return value !== undefined && (TURN_OPTIONS[name] as TurnOptionDef<unknown>).wanted(value);
  });
}

/** What is wrong with a model's name, wherever it is given (/model, /spawn --model, the tool, the API), or undefined. */
export function modelNameProblem(name: string): string | undefined {
  if (/\s/.test(name)) return 'A model name is one word';
  if (/\p{Cc}/u.test(name)) return 'A model name has no control characters';
  return undefined;
}

/** The sentence saying which wanted option the adapter cannot take, or undefined when it can take them all. */
export function unsupportedOption(
  adapter: { name: string; file: string; options: Partial<Record<TurnOptionName, unknown>> },
  options: TurnOptions,
): string | undefined {
  const missing = wantedOptions(options).find((name) => !adapter.options[name] && !COURTESY.has(name));
  return missing && `${adapter.name} does not support ${TURN_OPTIONS[missing].describe} (no options.${missing} in ${adapter.file})`;
}

/** The placeholder values the turn's options fill. */
export function optionPlaceholders(adapter: { toolSeparator: string }, options: TurnOptions): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const name of wantedOptions(options)) Object.assign(values, (TURN_OPTIONS[name] as TurnOptionDef<unknown>).fill(options[name], adapter));
  return values;
}
