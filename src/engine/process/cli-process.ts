import { stripVTControlCharacters } from 'node:util';
import { execa, type ResultPromise } from 'execa';
import { agentUser, asAgent } from './agent-user.ts';
import type { BatchedOutput, OutputPipe } from './batched-output.ts';
import { parseLine, readLines, type CliLine } from './lines.ts';
import { Secrets } from '../../kernel/log/secrets.ts';
import { MODEL_CREDENTIAL_VARIABLES } from '../sandbox/model-api-access.ts';
import { TailBuffer } from './tail-buffer.ts';
import { signalIfThere } from './owner-marks.ts';
import { delay } from '../../kernel/concurrency/delay.ts';
import { enclose, wallsUp, type Enclosure } from '../sandbox/walls.ts';
import { type WallScope } from '../sandbox/wall-scope.ts';

export interface CliLaunch {
  command: string;
  args: string[];
  cwd: string;
  /** The full environment of the process (the caller merges the bridge's own). */
  env: Record<string, string | undefined>;
  /** Written to its standard input, then closed (a prompt too large for the command line). */
  input?: string;
  /** Its standard input stays open for `writeInput` until `endInput`. Neither: it is closed. */
  openInput?: boolean;
  /**
   * Read its output in batches, through a pipe of this (see BatchedOutput). None: read as it
   * comes (a chat's turn, whose answer should not wait).
   */
  output?: BatchedOutput;
  /** Its walls, when the sandbox is on (BRIDGE_SANDBOX): whose home, which files. None: a home of its own command's. */
  walls?: WallScope;
  /** The variables of `env` holding model keys (see credentialVariables): their values never show in what it prints. */
  keys?: readonly string[];
}

export interface CliExit {
  code: number | null;
  signal: string | null;
  /** Set when the process never ran: missing binary, bad cwd, no permission. */
  spawnError?: string;
}

/** How long a CLI gets between SIGTERM and SIGKILL. */
export const DEFAULT_GRACE_MS = 3000;

/**
 * One CLI process in its own process group, so stopping it also stops everything it started
 * (shells, test runners, servers): SIGTERM to the group, a grace period, then SIGKILL.
 */
export class CliProcess {
  readonly exited: Promise<CliExit>;
  private readonly child: ResultPromise;
  private readonly stderr = new TailBuffer();
  private readonly pipe: OutputPipe | undefined;
  private stopping: Promise<void> | undefined;
  private hasExited = false;
  private readonly enclosure: Enclosure | undefined;
  /** The model keys its environment holds (without walls, the real ones): redacted from its output. */
  private readonly keys = new Secrets();

  constructor(launch: CliLaunch) {
    for (const name of launch.keys ?? MODEL_CREDENTIAL_VARIABLES) this.keys.add(launch.env[name]);
    const agent = asAgent(launch.env, launch.cwd);
    // Inside its walls when the sandbox is on: every CLI process the bridge starts comes here.
    this.enclosure = wallsUp() ? enclose({ ...launch, env: agent.env }, launch.walls ?? { home: `cli-${launch.command}` }) : undefined;
    this.pipe = launch.output?.take();
    // As the agent user when there is one; its output pipe was opened here, so it writes to it all the same.
    this.child = execa(this.enclosure?.command ?? launch.command, this.enclosure?.args ?? launch.args, {
      cwd: launch.cwd,
      ...agent,
      ...(this.enclosure ? { env: this.enclosure.env, uid: this.enclosure.uid, gid: this.enclosure.gid } : {}),
      extendEnv: false,
      detached: true, // a new process group, led by the CLI
      ...(launch.openInput ? { stdin: 'pipe' as const } : launch.input !== undefined ? { input: launch.input } : { stdin: 'ignore' as const }),
      // execa passes any descriptor on to the process; its types name only 3 to 9.
      ...(this.pipe ? { stdout: this.pipe.writeFd as 3 } : {}),
      buffer: false,
      reject: false,
    });
    this.pipe?.closeWriter(); // the CLI has its own copy now (or never started)
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.stderr.push(chunk));
    // A CLI that exits (or crashes) while input is open: writes fail with EPIPE, and its exit says why.
    this.child.stdin?.on('error', () => {});
    // When the CLI exits, whatever it left running in its group goes too: orphans would pile
    // up across turns, and one holding stdout open would keep the turn from ever ending.
    // Output already in the pipe stays readable.
    this.child.once('exit', () => {
      this.hasExited = true;
      this.killGroup('SIGKILL');
      this.enclosure?.close();
    });
    this.exited = this.child.then((result) => {
      this.enclosure?.close(); // also when it never ran
      if (result.failed && result.exitCode === undefined && !result.signal) {
        return { code: null, signal: null, spawnError: spawnErrorMessage(launch, result.cause) };
      }
      return { code: result.exitCode ?? null, signal: result.signal ?? null };
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Every line of stdout, to `onLine`; resolves when the CLI closes its stdout, rejects when reading fails. */
  readLines(onLine: (line: CliLine) => void): Promise<void> {
    const redacted = (line: CliLine) => {
      const raw = this.keys.redact(line.raw);
      onLine(raw === line.raw ? line : (parseLine(raw) ?? { raw }));
    };
    if (this.pipe) return this.pipe.readLines(redacted);
    const stdout = this.child.stdout;
    return stdout ? readLines(stdout, redacted) : Promise.resolve();
  }

  /** Writes one line to its open standard input; false once that input is closed or broken. */
  writeInput(line: string): boolean {
    const stdin = this.child.stdin;
    if (!stdin || !stdin.writable || this.hasExited) return false;
    stdin.write(`${line}\n`);
    return true;
  }

  /** Closes its standard input: a CLI reading messages from it finishes and exits. */
  endInput(): void {
    this.child.stdin?.end();
  }

  /** What it last said on stderr, as a chat may be shown it: its keys redacted, a terminal's colours and cursor codes taken out. */
  stderrTail(): string {
    return this.keys.redact(stripVTControlCharacters(this.stderr.toString()));
  }

  /** Stops the whole process group. Safe to call more than once; resolves when the CLI has exited. */
  stop(graceMs = DEFAULT_GRACE_MS): Promise<void> {
    return (this.stopping ??= this.terminate(graceMs));
  }

  private async terminate(graceMs: number): Promise<void> {
    if (this.hasExited) return;
    this.killGroup('SIGTERM');
    await Promise.race([this.exited, delay(graceMs)]);
    // Even when the CLI obeyed SIGTERM, children that ignored it may still be in the group.
    this.killGroup('SIGKILL');
    await this.exited;
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) signalIfThere(-this.child.pid, signal);
  }
}

function spawnErrorMessage(launch: CliLaunch, cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `command not found: ${launch.command} (is it installed, or is the working directory ${launch.cwd} missing?)`;
  const user = agentUser();
  if (code === 'EACCES' && user)
    return `permission denied: ${user.name} (BRIDGE_AGENT_USER) may not run ${launch.command} in ${launch.cwd} (\`namei -l\` on both shows the folders in the way)`;
  if (code === 'EACCES') return `permission denied running ${launch.command}`;
  return `could not start ${launch.command}: ${(cause as Error | undefined)?.message ?? 'unknown error'}`;
}
