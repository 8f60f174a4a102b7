import { closeSync, constants, openSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { scratchFolder } from './scratch.ts';

/** A fresh pipe: the end to read (non-blocking) and the end to give a process as its stdout. */
export interface Fifo {
  readFd: number;
  writeFd: number;
}

/**
 * Named pipes made ahead of need, a batch at a time: Node cannot make a pipe of its own, and
 * running `mkfifo` for each process would cost more than the pipe saves. Each one serves one
 * process: its name is removed as soon as both ends are open, so nothing can open it again.
 * Where `mkfifo` fails (no such command, a file system without pipes) the pool stays empty
 * and callers use an ordinary pipe.
 */
export class FifoPool {
  private readonly spare: string[] = [];
  private making: Promise<void> | undefined;
  private dir: string | undefined;
  private made = 0;
  private broken: string | undefined;
  private closed = false;

  constructor(
    private readonly batch = 16,
    /** Where the pool makes its own owner-only folder (the temp directory unless told). */
    private readonly parent?: string,
  ) {}

  /** Resolves once a pipe is ready to take, or none can be made. */
  async ready(): Promise<void> {
    while (!this.spare.length && !this.broken && !this.closed) {
      this.refill();
      await this.making;
    }
  }

  /** Why the pool makes no pipes, once `mkfifo` has failed. */
  get unavailable(): string | undefined {
    return this.broken;
  }

  /** An open pipe, or undefined when none is ready (the next batch is on its way). */
  take(): Fifo | undefined {
    if (this.spare.length <= this.batch / 2) this.refill();
    const path = this.spare.shift();
    if (!path) return undefined;
    let readFd: number | undefined;
    try {
      // The reading end first and non-blocking, so opening the writing end does not wait;
      // the writing end stays blocking, as CLIs expect of their stdout.
      readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      const writeFd = openSync(path, constants.O_WRONLY);
      return { readFd, writeFd };
    } catch {
      if (readFd !== undefined) closeSync(readFd);
      return undefined;
    } finally {
      unlinkSync(path);
    }
  }

  close(): void {
    this.closed = true;
    this.spare.length = 0;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  private refill(): void {
    if (this.making || this.broken || this.closed) return;
    this.dir ??= scratchFolder('pipes', this.parent);
    const names = Array.from({ length: this.batch }, () => join(this.dir!, `pipe-${++this.made}`));
    this.making = execa('mkfifo', ['-m', '600', ...names], { stdin: 'ignore' })
      .then(
        () => {
          if (this.closed) return;
          this.spare.push(...names);
        },
        (error: Error) => {
          this.broken = `mkfifo failed: ${error.message.split('\n')[0]}`;
        },
      )
      .finally(() => (this.making = undefined));
  }
}
