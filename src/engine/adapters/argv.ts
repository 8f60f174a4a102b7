import type { Adapter } from './load.ts';
import { PLACEHOLDER_PATTERN } from './manifest.ts';
import { UnsupportedOptionError } from '../../kernel/errors/unsupported-option-error.ts';
import { permissionTemplate } from './permissions.ts';
import { wallsUp } from '../sandbox/walls.ts';
import { optionPlaceholders, unsupportedOption, wantedOptions, type TurnOptions } from './turn-options.ts';

/** What one turn asks of the CLI: the prompt, the session to continue, and its options (turn-options.ts). */
export type TurnSpec = TurnOptions & {
  prompt: string;
  /** The CLI's own session id to continue; absent on a session's first turn. */
  resumeId?: string;
  /**
   * `ask`: the CLI asks the bridge (through `mcp`) before tools that need permission; `safe`:
   * it may only read; `control`: it asks over its own control channel (`permissions.control`),
   * and the bridge answers by the chat's mode. Absent, it bypasses its prompts (or keeps to
   * `allowedTools`).
   */
  permissions?: 'ask' | 'safe' | 'control';
  /**
   * The prompt, and messages sent while the CLI works, go to its standard input (the
   * adapter's `streamInput`); ignored for a CLI without it.
   */
  liveInput?: boolean;
  /**
   * The owner trusts the working directory (/trust): the CLI may use the settings, hooks and
   * MCP servers it ships. Absent, the adapter's `untrusted` flags make the CLI ignore them.
   */
  trusted?: boolean;
};

/** Prompts larger than this (UTF-8 bytes) are not one argument: Linux refuses an argument over 128 KiB (E2BIG). */
export const ARGUMENT_PROMPT_LIMIT = 96 * 1024;

/**
 * How this turn's prompt reaches the CLI: `live`, as the first message of its open input. A
 * prompt holding a NUL byte (pasted binary, say) goes the way a large one does: no argument
 * can hold one.
 */
export function promptVia(adapter: Adapter, turn: Pick<TurnSpec, 'prompt' | 'liveInput'>): 'argv' | 'stdin' | 'file' | 'live' {
  const { prompt } = turn;
  if (turn.liveInput && adapter.streamInput) return 'live';
  const hasNul = prompt.includes('\0');
  if (!hasNul && Buffer.byteLength(prompt) <= ARGUMENT_PROMPT_LIMIT) return 'argv';
  if (!adapter.largePrompt) {
    throw new UnsupportedOptionError(
      hasNul
        ? `${adapter.name} cannot take a prompt holding a NUL byte (no largePrompt in ${adapter.file}); send it without one`
        : `${adapter.name} cannot take a prompt of ${Math.round(Buffer.byteLength(prompt) / 1024)} KB (no largePrompt in ${adapter.file}); the limit is ${ARGUMENT_PROMPT_LIMIT / 1024} KB`,
    );
  }
  return adapter.largePrompt.via;
}

/** Files the turn wrote for its CLI, in its own owner-only folder. */
export interface TurnFiles {
  /** The prompt, when too large for an argument and the CLI reads it from a file. */
  promptFile?: string;
  /** The `agents` option's definitions. */
  agentsFile?: string;
}

/**
 * `args`, the `untrusted` flags unless the directory is trusted, the wanted options in table
 * order, the permission flags, `resume`, then the prompt
 * last: as an argument, or (when too large) as `largePrompt` says, with the file written to
 * `promptFile` when it goes in a file; or `streamInput` when it goes to the open input. A
 * `live` program has its own `args` and options' flags, and is given its mode, its session
 * and its prompts over its input.
 */
export function buildArgv(adapter: Adapter, turn: TurnSpec, files: TurnFiles = {}, live?: Adapter['live']): string[] {
  const values = placeholderValues(adapter, turn, files);
  const argv = fill(live?.args ?? adapter.args, values);
  if (!turn.trusted) argv.push(...fill(adapter.untrusted, values));
  for (const option of wantedOptions(turn)) argv.push(...fill(live?.options[option] ?? adapter.options[option] ?? [], values));
  if (!live) argv.push(...fill(permissionTemplate(adapter, turn), values));
  if (wallsUp()) argv.push(...fill(adapter.walls.args, values));
  if (live) return argv;
  if (turn.resumeId) argv.push(...fill(adapter.resume, values));
  const via = promptVia(adapter, turn);
  argv.push(...fill(via === 'live' ? adapter.streamInput! : via === 'argv' ? adapter.prompt : adapter.largePrompt!.args, values));
  return argv;
}

/**
 * The command line of a CLI kept between turns: its own control channel where it has one
 * (`streamInput` with `permissions.control`), else its `live` program, whose dialect opens
 * (or resumes) the session and sets the mode over its input.
 */
export function buildLiveArgv(adapter: Adapter, spec: Omit<TurnSpec, 'prompt' | 'liveInput' | 'permissions'>, files: TurnFiles = {}): string[] {
  return buildArgv(adapter, { ...spec, prompt: '', liveInput: true, permissions: 'control' }, files, adapter.live);
}

/** What the templates' placeholders are filled with, once every wanted option is known to be supported. */
function placeholderValues(adapter: Adapter, turn: TurnSpec, files: TurnFiles): Record<string, string | undefined> {
  const unsupported = unsupportedOption(adapter, turn);
  if (unsupported) throw new UnsupportedOptionError(unsupported);
  const values: Record<string, string | undefined> = { prompt: turn.prompt, sessionId: turn.resumeId, ...optionPlaceholders(adapter, turn), ...files };
  // No argument can carry a NUL byte: say which value held one, rather than fail the spawn.
  const nul = Object.entries(values).find(([name, value]) => name !== 'prompt' && value?.includes('\0'));
  if (nul) throw new UnsupportedOptionError(`${adapter.name} cannot take a ${nul[0]} holding a NUL byte`);
  return values;
}

export function fill(template: readonly string[], values: Record<string, string | undefined>): string[] {
  return template.map((arg) =>
    arg.replace(PLACEHOLDER_PATTERN, (_, name: string, format?: string) => {
      const value = values[name] ?? '';
      return format === 'json' ? JSON.stringify(value) : value;
    }),
  );
}
