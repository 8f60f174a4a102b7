import { closeSync, readSync } from 'node:fs';
import { FifoPool } from './fifo-pool.ts';
import { LineSplitter, type CliLine } from './lines.ts';

/** What one tick reads from one pipe at most, so a flood from one CLI does not hold up the others. */
const MAX_BYTES_PER_TICK = 1024 * 1024;
/**
 * A pipe found empty is looked at again after 1, 2, then 4 ticks: a run waiting on its model
 * prints nothing for seconds, and each look costs a system call and, when no other pipe is
 * due, a wake-up.
 */
const MAX_TICKS_BETWEEN_LOOKS = 4;

/**
 * Output nobody watches line by line (a background run's), read on one clock: each CLI writes
 * into a pipe of its own, and on ticks `everyMs` apart one timer reads the pipes that are due
 * until they are empty. Read as it comes, a CLI's stdout wakes the bridge for every line it
 * prints (Node keeps reading a paused child's stdout), and each wake-up costs more than the
 * line; here a busy CLI costs one read a tick, and a quiet one a look now and then. The timer
 * sleeps through ticks no pipe is due on. While a pipe is full the CLI waits, as it would on an
 * ordinary one.
 */
export class BatchedOutput {
  private readonly readers = new Set<PipeReader>();
  private readonly buffer = Buffer.allocUnsafe(64 * 1024);
  private timer: NodeJS.Timeout | undefined;
  /** The tick the timer is set for. */
  private timerTick = Infinity;
  private readonly epoch = performance.now();

  constructor(
    private readonly everyMs: number,
    private readonly pool = new FifoPool(),
  ) {}

  /** Resolves once `take` has a pipe to give (or none can be made): call it before starting a CLI. */
  ready(): Promise<void> {
    return this.pool.ready();
  }

  /** A pipe for one CLI's stdout, or undefined when none is ready (give it an ordinary pipe then). */
  take(): OutputPipe | undefined {
    const fifo = this.pool.take();
    if (!fifo) return undefined;
    let writeFd: number | undefined = fifo.writeFd;
    return {
      writeFd: fifo.writeFd,
      closeWriter: () => {
        if (writeFd !== undefined) closeSync(writeFd);
        writeFd = undefined;
      },
      readLines: (onLine) =>
        new Promise<void>((resolve, reject) => {
          const due = this.currentTick() + 1;
          this.readers.add({ fd: fifo.readFd, splitter: new LineSplitter(onLine), resolve, reject, due, every: 1 });
          if (due < this.timerTick) this.setTimer(due);
        }),
    };
  }

  /** Ends every pipe still read (their processes are gone by now) and removes the spare ones. */
  close(): void {
    for (const reader of this.readers) this.finish(reader, true);
    clearTimeout(this.timer);
    this.timerTick = Infinity;
    this.pool.close();
  }

  private tick(): void {
    const now = this.currentTick();
    let next = Infinity;
    for (const reader of this.readers) {
      if (reader.due <= now) {
        const ended = this.drain(reader, now);
        if (ended) {
          this.finish(reader, ended);
          continue;
        }
      }
      next = Math.min(next, reader.due);
    }
    this.timerTick = Infinity;
    if (next < Infinity) this.setTimer(next);
  }

  private currentTick(): number {
    return Math.floor((performance.now() - this.epoch) / this.everyMs);
  }

  private setTimer(tick: number): void {
    clearTimeout(this.timer);
    this.timerTick = tick;
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.epoch + tick * this.everyMs - performance.now()));
  }

  private finish(reader: PipeReader, ended: true | Error): void {
    this.readers.delete(reader);
    closeSync(reader.fd);
    if (ended !== true) return reader.reject(ended);
    try {
      reader.splitter.end();
      reader.resolve();
    } catch (error) {
      reader.reject(error as Error);
    }
  }

  /** Reads what the pipe holds: false while it is open, true at its end, the error when reading failed. */
  private drain(reader: PipeReader, now: number): boolean | Error {
    for (let read = 0; read < MAX_BYTES_PER_TICK;) {
      let bytes: number;
      try {
        bytes = readSync(reader.fd, this.buffer, 0, this.buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return error as Error;
        // Empty: look again sooner when it just had something, later while it stays quiet.
        reader.every = read ? 1 : Math.min(reader.every * 2, MAX_TICKS_BETWEEN_LOOKS);
        // On a multiple of `every`, so quiet pipes are looked at on the same ticks.
        reader.due = (Math.floor(now / reader.every) + 1) * reader.every;
        return false;
      }
      if (bytes === 0) return true; // every writer closed it: the CLI and all it started are gone
      try {
        reader.splitter.push(this.buffer.subarray(0, bytes));
      } catch (error) {
        return error as Error; // a bug in what handles the lines ends this pipe, not the others
      }
      read += bytes;
    }
    reader.every = 1; // more than a tick's worth waits: read on at the next
    reader.due = now + 1;
    return false;
  }
}

/** One CLI's stdout through a pipe of BatchedOutput. */
export interface OutputPipe {
  /** Give this to the process as its stdout. */
  writeFd: number;
  /** Once the process has it (or failed to start): the pipe ends when the process's copies close. */
  closeWriter(): void;
  /** Every line, in order; resolves when the pipe ends. */
  readLines(onLine: (line: CliLine) => void): Promise<void>;
}

interface PipeReader {
  fd: number;
  splitter: LineSplitter;
  resolve(): void;
  reject(error: Error): void;
  /** The tick of the next look, and how many ticks apart looks are now. */
  due: number;
  every: number;
}
