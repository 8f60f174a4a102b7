import type { Adapter } from '../adapters/load.ts';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildArgv, promptVia, type TurnFiles, type TurnSpec } from '../adapters/argv.ts';
import { UnsupportedOptionError } from '../../kernel/errors/unsupported-option-error.ts';
import { untrustedConfigFound } from '../adapters/untrusted-files.ts';
import { MCP_TOKEN_VARIABLE, wantedOptions } from '../adapters/turn-options.ts';
import type { BatchedOutput } from '../process/batched-output.ts';
import { CliProcess } from '../process/cli-process.ts';
import { turnWalls, type WallScope } from '../sandbox/wall-scope.ts';
import { agentReadableFolder, writeAgentFile } from '../process/agent-space.ts';
import type { CliLine } from '../process/lines.ts';
import type { BlockedEvent, UsageEvent } from '../../kernel/protocols/events.ts';
import { LineDecoder } from '../../kernel/protocols/line-decoder.ts';
import { decoders, inputEncoders } from '../../kernel/protocols/index.ts';
import { LiveInput } from './live-input.ts';
import type { RunningTurn, TurnHandlers, TurnLimits, TurnOutcome } from './running-turn.ts';
import { safely, TurnCourse } from './turn-course.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { credentialVariables } from '../sandbox/model-api-access.ts';

export interface TurnRun extends TurnLimits {
  adapter: Adapter;
  spec: TurnSpec;
  cwd: string;
  /** The environment CLIs run with (normally the bridge's own: API keys pass through). */
  env: Record<string, string | undefined>;
  graceMs?: number;
  /** Read the CLI's output in batches (background runs, where nobody waits for each line; see CliLaunch). */
  output?: BatchedOutput;
  /** Where a listener's bug is reported (it never stops the turn). */
  log?: Log;
  /** Whose walls its CLI runs in when the sandbox is on (read at each turn: `safe` makes the directory read-only). */
  walls?: WallScope;
}

/**
 * A turn whose CLI runs here, in a process of its own (Turn) or in one kept between turns
 * (LiveTurn), as against one on a worker: what it answers alike, through its course, and
 * through its input where its CLI reads messages while it works.
 */
export abstract class LocalTurn implements RunningTurn {
  abstract readonly done: Promise<TurnOutcome>;
  protected abstract readonly course: TurnCourse;
  protected abstract readonly input: LiveInput | undefined;

  send(text: string, id: string): boolean {
    return this.input?.send(text, id) ?? false;
  }

  get untaken(): number {
    return this.input?.untaken ?? 0;
  }

  get namesMessages(): boolean | undefined {
    return this.input?.namesMessages;
  }

  /** Ends the turn (its CLI's whole process group stopped, or a kept CLI interrupted); the outcome becomes `stopped` with this reason. */
  stop(reason: string): Promise<void> {
    return this.course.stop({ status: 'stopped', message: reason });
  }

  /** Pauses the timeout while the turn waits on a person (see TurnLimitWatch). */
  holdTimeout(): () => void {
    return this.course.limits.hold();
  }
}

/**
 * One turn: start the CLI, decode its lines into events, and decide the outcome. Never
 * throws for anything the CLI does; the outcome says what happened.
 */
export class Turn extends LocalTurn {
  readonly done: Promise<TurnOutcome>;
  private readonly process: CliProcess;
  /** What its events (and its walls') said so far, its limits, and why the bridge ended it. */
  protected readonly course: TurnCourse;
  /** The turn's own owner-only folder, for what its CLI reads from files (a large prompt, agents): gone with the turn. */
  private readonly folder: string | undefined;
  /** Messages for a CLI that reads them while it works (spec.liveInput); the prompt was the first. */
  protected readonly input: LiveInput | undefined;

  constructor(
    private readonly run: TurnRun,
    handlers: TurnHandlers = {},
  ) {
    super();
    // A host its sandbox refused shows in the turn's progress, as its steps do; a model call its credential proxy metered is the turn's cost.
    const started = startCli(
      run,
      'turn',
      (files) => buildArgv(run.adapter, run.spec, files),
      (event) => {
        this.course.note(event);
        this.course.emit(event);
      },
    );
    this.process = started.process;
    this.folder = started.folder;
    this.course = new TurnCourse(run.adapter.name, handlers, run, run.log, () => this.process.stop(run.graceMs));
    if (started.via === 'live') {
      const encode = inputEncoders[run.adapter.protocol]!;
      this.input = new LiveInput(
        { send: (text, id) => this.process.writeInput(encode(text, id)), end: () => this.process.endInput() },
        { unsteered: handlers.onUnsteered },
      );
      this.input.send(run.spec.prompt, randomUUID());
    }
    this.done = this.drive();
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  private async drive(): Promise<TurnOutcome> {
    const { adapter, log } = this.run;
    const decoder = new LineDecoder(decoders[adapter.protocol]!);
    const { course, input } = this;
    const { handlers } = course;
    // Runs for every line the CLI prints: no closure per line or event.
    const onLine = (line: CliLine) => {
      safely(handlers, handlers.onLine, line.raw, log);
      const events = decoder.decode(line.raw, line.json);
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!;
        course.observe(event);
        input?.observe(event);
      }
    };
    await this.process.readLines(onLine).catch((error: Error) => {
      course.lastError = `reading ${adapter.name}'s output failed: ${error.message}`;
    });
    const exit = await this.process.exited;
    input?.close();
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    return course.finish(exit, this.process.stderrTail());
  }
}

const TURN_FILE_NAMES: Record<keyof TurnFiles, string> = { promptFile: 'prompt.md', agentsFile: 'agents.json' };

/**
 * A CLI's process, for one turn (a prompt in `spec`) or for as long as it is kept: refused in
 * an untrusted directory holding configuration it would act on; the files its command line
 * names (a large prompt, agents) in an owner-only folder of its own (`folder`, the caller's to
 * remove), readable by the CLI's user only; the MCP secret in its environment, never on its
 * command line; in the session's walls, with that folder and `readable` shown, what they
 * refuse and meter `report`ed. `via`: how the prompt goes (`live`: on its open input).
 */
export function startCli(
  run: Pick<TurnRun, 'adapter' | 'cwd' | 'env' | 'walls' | 'output'> & { spec: Omit<TurnSpec, 'prompt'> & { prompt?: string } },
  kind: 'turn' | 'live',
  argv: (files: TurnFiles) => string[],
  report: (event: BlockedEvent | UsageEvent) => void,
  readable?: string,
): { process: CliProcess; folder: string | undefined; via: ReturnType<typeof promptVia> } {
  const { adapter, spec, cwd, env } = run;
  const unsafe = spec.trusted ? undefined : untrustedConfigFound(adapter, cwd, env.HOME);
  if (unsafe) throw new UnsupportedOptionError(unsafe);
  const via = spec.prompt === undefined ? 'live' : promptVia(adapter, { prompt: spec.prompt, liveInput: spec.liveInput });
  const contents: Partial<Record<keyof TurnFiles, string>> = {
    ...(via === 'file' ? { promptFile: spec.prompt } : {}),
    ...(wantedOptions(spec).includes('agents') && adapter.options.agents ? { agentsFile: JSON.stringify(spec.agents) } : {}),
  };
  const folder = Object.keys(contents).length ? agentReadableFolder(kind) : undefined;
  let args: string[];
  try {
    const files: TurnFiles = {};
    for (const [key, content] of Object.entries(contents) as [keyof TurnFiles, string][]) {
      files[key] = join(folder!, TURN_FILE_NAMES[key]);
      writeAgentFile(files[key], content);
    }
    args = argv(files);
  } catch (error) {
    if (folder) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const child = new CliProcess({
    command: adapter.resolvedCommand,
    args,
    ...(via === 'stdin' ? { input: spec.prompt } : via === 'live' ? { openInput: true } : {}),
    cwd,
    env: { ...env, ...adapter.env, ...(spec.mcp ? { [MCP_TOKEN_VARIABLE]: spec.mcp.token } : {}) },
    keys: credentialVariables([adapter.walls.modelApi]),
    output: run.output,
    walls: turnWalls(run.walls, spec.mcp, [folder, readable], report, adapter.walls),
  });
  return { process: child, folder, via };
}
