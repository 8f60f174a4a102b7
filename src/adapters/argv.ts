import type { Adapter } from './load.ts';
import { PLACEHOLDER_PATTERN } from './manifest.ts';
import { optionPlaceholders, unsupportedOption, wantedOptions, type TurnOptions } from './turn-options.ts';

/** What one turn asks of the CLI: the prompt, the session to continue, and its options (turn-options.ts). */
export type TurnSpec = TurnOptions & {
  prompt: string;
  /** The CLI's own session id to continue; absent on a session's first turn. */
  resumeId?: string;
  /** The CLI asks the bridge (through `mcp`) before tools that need permission, instead of bypassing. */
  permissionPrompt?: boolean;
};

export class UnsupportedOptionError extends Error {
  override name = 'UnsupportedOptionError';
}

/** `args`, the wanted options in table order, the permission flags, `resume`, then the prompt last. */
export function buildArgv(adapter: Adapter, turn: TurnSpec): string[] {
  const unsupported = unsupportedOption(adapter, turn);
  if (unsupported) throw new UnsupportedOptionError(unsupported);
  const values: Record<string, string | undefined> = { prompt: turn.prompt, sessionId: turn.resumeId, ...optionPlaceholders(adapter, turn) };
  const argv = fill(adapter.args, values);
  for (const option of wantedOptions(turn)) argv.push(...fill(adapter.options[option] ?? [], values));
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

function fill(template: readonly string[], values: Record<string, string | undefined>): string[] {
  return template.map((arg) =>
    arg.replace(PLACEHOLDER_PATTERN, (_, name: string, format?: string) => {
      const value = values[name] ?? '';
      return format === 'json' ? JSON.stringify(value) : value;
    }),
  );
}
