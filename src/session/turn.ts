import type { Adapter } from '../adapters/load.ts';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildArgv, promptVia, type TurnFiles, type TurnSpec } from '../adapters/argv.ts';
import { UnsupportedOptionError } from '../errors/unsupported-option-error.ts';
import { untrustedConfigFound } from '../adapters/untrusted-files.ts';
import { MCP_TOKEN_VARIABLE, wantedOptions } from '../adapters/turn-options.ts';
import type { BatchedOutput } from '../process/batched-output.ts';
import { CliProcess, DEFAULT_GRACE_MS } from '../process/cli-process.ts';
import { agentReadableFolder, writeAgentFile } from '../process/agent-space.ts';
import type { CliLine } from '../process/lines.ts';
import type { AgentEvent, ExitEvent, ResultEvent } from '../protocols/events.ts';
import { LineDecoder } from '../protocols/line-decoder.ts';
import { decoders, inputEncoders } from '../protocols/index.ts';
import { LiveInput } from './live-input.ts';
import type { Log } from '../log/logger.ts';

export type TurnStatus = 'completed' | 'failed' | 'stopped' | 'timed_out';

export interface TurnOutcome {
  status: TurnStatus;
  /** The answer (on failure: whatever the agent said before failing). */
  text: string;
  /** Why the turn did not complete, in words a user can act on. */
  error?: string;
  result?: ResultEvent;
  /** The CLI's session id, to resume next turn. */
  sessionId?: string;
  exit: ExitEvent;
  durationMs: number;
  /** Something the chat should know about how the turn ran (its old session was gone, say). */
  notice?: string;
}

export interface TurnHandlers {
  /** Every decoded event, in order; `exit` is always the last. */
  onEvent?: (event: AgentEvent) => void;
  /** Every raw stdout line, for run logs. */
  onLine?: (raw: string) => void;
}

export interface TurnRun {
  adapter: Adapter;
  spec: TurnSpec;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Stop the turn after this long and report it as timed out. */
  timeoutMs?: number;
  graceMs?: number;
  /** Read the CLI's output in batches (see CliLaunch). */
  output?: BatchedOutput;
  /** Where a listener's bug is reported (it never stops the turn). */
  log?: Log;
}

/**
 * One turn: start the CLI, decode its lines into events, and decide the outcome. Never
 * throws for anything the CLI does; the outcome says what happened.
 */
export class Turn {
  readonly done: Promise<TurnOutcome>;
  private readonly process: CliProcess;
  private stopReason: { status: 'stopped' | 'timed_out'; message: string } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private deadline: number | undefined;
  private holds = 0;
  private remainingMs: number | undefined;
  private finished = false;
  /** The turn's own owner-only folder, for what its CLI reads from files (a large prompt, agents): gone with the turn. */
  private readonly folder: string | undefined;
  /** Messages for a CLI that reads them while it works (spec.liveInput); the prompt was the first. */
  private readonly live: LiveInput | undefined;

  constructor(
    private readonly run: TurnRun,
    private readonly handlers: TurnHandlers = {},
  ) {
    const unsafe = run.spec.trusted ? undefined : untrustedConfigFound(run.adapter, run.cwd, run.env.HOME);
    if (unsafe) throw new UnsupportedOptionError(unsafe);
    const via = promptVia(run.adapter, run.spec);
    const wanted = wantedOptions(run.spec);
    const contents: Record<string, string> = {
      ...(via === 'file' ? { promptFile: run.spec.prompt } : {}),
      ...(wanted.includes('agents') && run.adapter.options.agents ? { agentsFile: JSON.stringify(run.spec.agents) } : {}),
    };
    if (Object.keys(contents).length) this.folder = agentReadableFolder('turn');
    let argv: string[];
    try {
      argv = buildArgv(run.adapter, run.spec, writeTurnFiles(this.folder, contents));
    } catch (error) {
      if (this.folder) rmSync(this.folder, { recursive: true, force: true });
      throw error;
    }
    this.process = new CliProcess({
      command: run.adapter.resolvedCommand,
      args: argv,
      ...(via === 'stdin' ? { input: run.spec.prompt } : via === 'live' ? { openInput: true } : {}),
      cwd: run.cwd,
      // The MCP secret travels in the environment, never on the command line.
      env: { ...run.env, ...run.adapter.env, ...(run.spec.mcp ? { [MCP_TOKEN_VARIABLE]: run.spec.mcp.token } : {}) },
      ...(run.output ? { output: run.output } : {}),
    });
    if (via === 'live') {
      const process = this.process;
      this.live = new LiveInput({
        encode: inputEncoders[run.adapter.protocol]!,
        write: (line) => process.writeInput(line),
        end: () => process.endInput(),
      });
      this.live.send(run.spec.prompt, randomUUID());
    }
    this.done = this.drive();
  }

  /**
   * A message for the CLI while it works, where it reads them (spec.liveInput): within its
   * current turn if it has more to do, else as the one after. False when it takes no more
   * (it has answered everything and is finishing, or cannot take messages at all).
   */
  send(text: string, id: string): boolean {
    return this.live?.send(text, id) ?? false;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Stops the CLI's whole process group; the outcome becomes `stopped` with this reason. */
  async stop(reason: string): Promise<void> {
    this.stopReason ??= { status: 'stopped', message: reason };
    await this.process.stop(this.run.graceMs ?? DEFAULT_GRACE_MS);
  }

  private async drive(): Promise<TurnOutcome> {
    const started = Date.now();
    const { adapter } = this.run;
    const decoder = new LineDecoder(decoders[adapter.protocol]!);
    const emit = (event: AgentEvent) => safely(() => this.handlers.onEvent?.(event), this.run.log);
    if (this.run.timeoutMs) this.armTimeout(this.run.timeoutMs);

    let result: ResultEvent | undefined;
    let sessionId: string | undefined;
    let lastText = '';
    let lastError: string | undefined;
    const onLine = (line: CliLine) => {
      safely(() => this.handlers.onLine?.(line.raw), this.run.log);
      for (const event of decoder.decode(line.raw, line.json)) {
        if (event.type === 'started') sessionId = event.sessionId;
        else if (event.type === 'text' && !event.parentId) lastText = event.text;
        else if (event.type === 'error') lastError = event.message;
        else if (event.type === 'result') {
          result = event;
          sessionId = event.sessionId ?? sessionId;
        }
        emit(event);
        this.live?.observe(event);
      }
    };
    await this.process.readLines(onLine).catch((error: Error) => {
      lastError = `reading ${adapter.name}'s output failed: ${error.message}`;
    });
    const exitInfo = await this.process.exited;
    this.live?.close();
    clearTimeout(this.timer);
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.finished = true;

    const exit: ExitEvent = { type: 'exit', code: exitInfo.code, signal: exitInfo.signal };
    const base = { result, sessionId, exit, durationMs: Date.now() - started, text: result?.text ?? lastText };
    let outcome: TurnOutcome;
    if (this.stopReason) {
      outcome = { ...base, status: this.stopReason.status, error: this.stopReason.message };
    } else if (exitInfo.spawnError) {
      outcome = { ...base, status: 'failed', error: `${adapter.name}: ${exitInfo.spawnError}` };
    } else if (result && !result.isError) {
      outcome = { ...base, status: 'completed' };
    } else {
      outcome = { ...base, status: 'failed', error: this.failure(exitInfo, result, lastError) };
    }
    if (outcome.status === 'failed' && outcome.error && outcome.error !== result?.text && outcome.error !== lastError) {
      emit({ type: 'error', message: outcome.error });
    }
    emit(exit);
    return outcome;
  }

  /**
   * Pauses the timeout while the run waits on something outside it (a person answering an
   * approval): waiting is not hanging. Returns the release; the clock resumes where it was.
   */
  holdTimeout(): () => void {
    if (this.holds++ === 0 && this.deadline !== undefined && !this.finished) {
      clearTimeout(this.timer);
      this.remainingMs = Math.max(0, this.deadline - Date.now());
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && this.remainingMs !== undefined && !this.finished) {
        this.armTimeout(this.remainingMs);
        this.remainingMs = undefined;
      }
    };
  }

  private armTimeout(ms: number): void {
    this.deadline = Date.now() + ms;
    this.timer = setTimeout(() => this.timeOut(), ms);
  }

  private timeOut(): void {
    const seconds = Math.round((this.run.timeoutMs ?? 0) / 1000);
    this.stopReason ??= { status: 'timed_out', message: `timed out after ${seconds} s` };
    void this.process.stop(this.run.graceMs ?? DEFAULT_GRACE_MS);
  }

  private failure(exit: { code: number | null; signal: string | null }, result: ResultEvent | undefined, lastError: string | undefined): string {
    const name = this.run.adapter.name;
    if (result?.isError) return result.text || `${name} reported an error`;
    const stderr = lastLines(this.process.stderrTail(), 5);
    const detail = lastError ?? stderr;
    const how = exit.signal ? `was killed by ${exit.signal}` : exit.code ? `exited with code ${exit.code}` : 'exited without a result';
    return detail ? `${name} ${how}: ${detail}` : `${name} ${how}`;
  }
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

/** A listener's bug must not kill the turn that feeds it. */
function safely(fn: () => void, log: Log | undefined): void {
  try {
    fn();
  } catch (error) {
    if (log) log.error({ err: error }, 'a listener of the turn failed');
    else console.error('a listener of the turn failed:', error);
  }
}

const TURN_FILE_NAMES: Record<keyof TurnFiles, string> = { promptFile: 'prompt.md', agentsFile: 'agents.json' };

/** Each file in the turn's folder, readable by the CLI's user only; their paths for the argv. */
function writeTurnFiles(folder: string | undefined, contents: Partial<Record<keyof TurnFiles, string>>): TurnFiles {
  const files: TurnFiles = {};
  for (const [key, content] of Object.entries(contents) as [keyof TurnFiles, string][]) {
    const file = join(folder!, TURN_FILE_NAMES[key]);
    writeAgentFile(file, content);
    files[key] = file;
  }
  return files;
}
