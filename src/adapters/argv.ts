import type { Adapter } from './load.ts';
import { PLACEHOLDER_PATTERN, type AdapterOption, type Placeholder } from './manifest.ts';

/** What one turn asks of the CLI. Absent fields leave their option out. */
export interface TurnSpec {
  prompt: string;
  /** The CLI's own session id to continue; absent on a session's first turn. */
  resumeId?: string;
  model?: string;
  cwd?: string;
  systemPrompt?: string;
  /** The bridge's MCP endpoint for this session, written by the tools part. */
  mcp?: { configFile?: string; url: string; serverName: string; token: string };
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  /** The CLI asks the bridge (through `mcp`) before tools that need permission, instead of bypassing. */
  permissionPrompt?: boolean;
}

/** Options in the order they are added; the prompt always comes last (codex needs `resume ID PROMPT` at the end). */
const OPTION_ORDER: AdapterOption[] = ['cwd', 'model', 'systemPrompt', 'mcp', 'allowedTools', 'disallowedTools', 'maxTurns'];

export class UnsupportedOptionError extends Error {
  override name = 'UnsupportedOptionError';
}

export function buildArgv(adapter: Adapter, turn: TurnSpec): string[] {
  const values = placeholderValues(adapter, turn);
  const argv = fill(adapter.args, values);
  for (const option of OPTION_ORDER) {
    if (!wanted(option, turn)) continue;
    const template = adapter.options[option];
    if (template) argv.push(...fill(template, values));
    // The working directory is always the process's own; the flag is only a courtesy.
    else if (option !== 'cwd')
      throw new UnsupportedOptionError(`${adapter.name} does not support ${describe(option)} (no options.${option} in ${adapter.file})`);
  }
  if (turn.permissionPrompt) {
    if (!adapter.permissions.prompt)
      throw new UnsupportedOptionError(
        `${adapter.name} cannot ask the bridge for permission (no permissions.prompt in ${adapter.file}), so its tool calls cannot be approved from the chat`,
      );
    if (!turn.mcp) throw new UnsupportedOptionError(`${adapter.name} needs the bridge's MCP endpoint to ask for permission`);
    argv.push(...fill(adapter.permissions.prompt, values));
  } else {
    argv.push(...fill(adapter.permissions.bypass, values));
  }
  if (turn.resumeId) argv.push(...fill(adapter.resume, values));
  argv.push(...fill(adapter.prompt, values));
  return argv;
}

function wanted(option: AdapterOption, turn: TurnSpec): boolean {
  switch (option) {
    case 'allowedTools':
      return !!turn.allowedTools?.length;
    case 'disallowedTools':
      return !!turn.disallowedTools?.length;
    case 'mcp':
      return !!turn.mcp;
    case 'maxTurns':
      return turn.maxTurns !== undefined;
    default:
      return turn[option] !== undefined && turn[option] !== '';
  }
}

function placeholderValues(adapter: Adapter, turn: TurnSpec): Partial<Record<Placeholder, string>> {
  return {
    prompt: turn.prompt,
    sessionId: turn.resumeId,
    model: turn.model,
    cwd: turn.cwd,
    systemPrompt: turn.systemPrompt,
    mcpConfigFile: turn.mcp?.configFile,
    mcpUrl: turn.mcp?.url,
    mcpServerName: turn.mcp?.serverName,
    mcpToken: turn.mcp?.token,
    allowedTools: turn.allowedTools?.join(adapter.toolSeparator),
    disallowedTools: turn.disallowedTools?.join(adapter.toolSeparator),
    maxTurns: turn.maxTurns?.toString(),
  };
}

function fill(template: readonly string[], values: Partial<Record<Placeholder, string>>): string[] {
  return template.map((arg) =>
    arg.replace(PLACEHOLDER_PATTERN, (_, name: Placeholder, format?: string) => {
      const value = values[name] ?? '';
      return format === 'json' ? JSON.stringify(value) : value;
    }),
  );
}

function describe(option: AdapterOption): string {
  return {
    model: 'choosing a model',
    systemPrompt: 'a system prompt',
    mcp: 'MCP tools',
    allowedTools: 'an allowed-tools list',
    disallowedTools: 'a disallowed-tools list',
    maxTurns: 'a turn limit',
    cwd: 'a working directory',
  }[option];
}
