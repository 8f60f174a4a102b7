import type { Redis } from 'ioredis';
import { keys } from './redis.ts';
import { asSigned, type Signer } from './signing.ts';
import type { SessionEvent } from './session-protocol.ts';

/** Lines are sent this often: one stream entry for many lines. */
const LINES_EVERY_MS = 50;
/** A run's stream keeps about this many entries; the bridge reads them far sooner. */
const STREAM_MAX_ENTRIES = 100_000;

/** An entry of the stream, as signed: its place in the run's order, so one added twice is seen. */
interface Sequenced {
  seq: number;
  event: SessionEvent;
}

/**
 * A worker's side of a run's event stream in Redis: lines gathered and sent in batches,
 * reports sent at once, everything in order (one connection runs its commands in order),
 * each entry signed for the run and its attempt and numbered. While Redis is away, commands
 * wait in the connection's queue; nothing is dropped.
 */
export class SessionStreamWriter {
  private lines: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private written: Promise<unknown> = Promise.resolve();
  /** The number of the last report written. */
  private seq = 0;

  constructor(
    private readonly redis: Redis,
    /** The placement's channel: only the bridge reads what is written, and only this worker could have written it. */
    private readonly signer: Signer,
    private readonly stream: string,
    private readonly attempt: number,
    private readonly keepSeconds: number,
    /** Takes the secrets this worker knows out of each report before it is sealed (its log's redaction set). */
    private readonly redact: (text: string) => string,
  ) {}

  line(raw: string): void {
    this.lines.push(raw);
    this.timer ??= setTimeout(() => this.sendLines(), LINES_EVERY_MS);
  }

  report(event: Exclude<SessionEvent, { kind: 'lines' }>): void {
    this.sendLines();
    this.add(event);
  }

  /** Sends what is gathered and resolves once everything is in Redis; the stream expires after `keepSeconds`. */
  async close(): Promise<void> {
    this.sendLines();
    this.written = this.redis.expire(keys.events(this.stream), this.keepSeconds);
    await this.written;
  }

  private sendLines(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.lines.length) return;
    this.add({ kind: 'lines', lines: this.lines });
    this.lines = [];
  }

  private add(event: SessionEvent): void {
    const body: Sequenced = { seq: ++this.seq, event: JSON.parse(this.redact(JSON.stringify(event))) as Sequenced['event'] };
    const signed = this.signer.sign({ kind: 'event', id: this.stream, attempt: this.attempt }, body, this.keepSeconds);
    this.written = this.redis.xadd(keys.events(this.stream), 'MAXLEN', '~', String(STREAM_MAX_ENTRIES), '*', 'e', JSON.stringify(signed));
  }
}

/** A stream followed, its placement's entries read with that placement's channel, from its read mark on (`seq`: an entry numbered no higher is a replay). */
interface Followed extends ReadMark {
  attempt: number;
  channel: Signer;
  onEvent: (event: SessionEvent) => void;
}

/** How long one read waits for new entries; a run followed meanwhile waits at most this long. */
const BLOCK_MS = 500;

/** How far the bridge read a run's stream: signed, so nobody rewinds it to have entries taken twice. */
interface ReadMark {
  position: string;
  seq: number;
}

/**
 * The bridge's side: one loop reads the streams of every run it follows with a blocking
 * XREAD on a connection of its own, hands each event to its run, and keeps how far it read in
 * Redis, so a restarted bridge goes on where it stopped instead of repeating lines and tool
 * calls. An entry not sealed in the channel of one of the run's placements, for the run and
 * that placement, expired, or numbered at or below the last one taken (a replay) is refused:
 * `refused` hears the run and why.
 */
export class SessionStreamReader {
  private readonly followed = new Map<string, Followed>();
  private wake: (() => void) | undefined;
  private closed = false;
  private readonly loop: Promise<void>;

  constructor(
    /** A connection for this reader alone: XREAD blocks it. */
    private readonly blocking: Redis,
    private readonly commands: Redis,
    /** Signs how far the bridge read (its own key: no worker rewinds it). */
    private readonly marks: Signer,
    /** How long a read mark stays valid: the run's retention. */
    private readonly keepSeconds: number,
    private readonly onError: (error: Error) => void,
    private readonly refused: (stream: string, why: string) => void,
  ) {
    this.loop = this.run();
  }

  /** Follows a run's events from where the bridge last read them (from the start for a new run). */
  async follow(stream: string, attempt: number, channel: Signer, onEvent: (event: SessionEvent) => void): Promise<void> {
    const raw = await this.commands.hget(keys.read, stream);
    let mark: ReadMark = { position: '0', seq: 0 };
    if (raw !== null) {
      const verified = this.marks.verify<ReadMark>(raw, { kind: 'read', id: stream, attempt: 0 });
      if (verified.ok) mark = verified.body;
      else this.refused(stream, `how far its events were read: ${verified.why}; reading them from the start`);
    }
    this.followed.set(stream, { attempt, channel, ...mark, onEvent });
    this.wake?.();
  }

  /** Stops following a run and drops what Redis holds of its events (its record has them now). */
  async forget(stream: string): Promise<void> {
    this.followed.delete(stream);
    await this.commands.multi().hdel(keys.read, stream).del(keys.events(stream)).exec();
  }

  /** Stops reading; runs still followed are picked up again by the next bridge. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    this.blocking.disconnect();
    await this.loop;
  }

  /** The entry's event, when its placement's worker sealed it for this run and placement and it comes after the last one taken. */
  private verify(stream: string, followed: Followed, fields: string[]): SessionEvent | undefined {
    const at = fields.indexOf('e');
    const raw = at >= 0 ? fields[at + 1] : undefined;
    const attempt = asSigned(raw)?.attempt;
    if (attempt !== undefined && attempt !== followed.attempt) return void this.refused(stream, `a report: it claims placement ${attempt}, not this stream's`);
    const verified = followed.channel.verify<Sequenced>(raw, { kind: 'event', id: stream, attempt: followed.attempt });
    if (!verified.ok) return void this.refused(stream, `a report: ${verified.why}`);
    const { seq, event } = verified.body;
    if (!Number.isSafeInteger(seq) || !event || typeof event !== 'object') return void this.refused(stream, 'a report: it is not an event');
    if (seq <= followed.seq) return void this.refused(stream, `a report: it was taken before (replayed, number ${seq})`);
    followed.seq = seq;
    return event;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      if (!this.followed.size) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const streams = [...this.followed.keys()];
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = await this.blocking.xread(
          'COUNT',
          1000,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          ...streams.map(keys.events),
          ...streams.map((id) => this.followed.get(id)!.position),
        );
      } catch (error) {
        if (this.closed) return;
        this.onError(error as Error);
        await new Promise((resolve) => setTimeout(resolve, BLOCK_MS));
        continue;
      }
      const moved: Record<string, string> = {};
      for (const [key, entries] of reply ?? []) {
        const stream = streams[streams.map(keys.events).indexOf(key)]!;
        const followed = this.followed.get(stream);
        if (!followed) continue;
        for (const [id, fields] of entries) {
          followed.position = id;
          const event = this.verify(stream, followed, fields);
          if (event) followed.onEvent(event);
        }
        const mark: ReadMark = { position: followed.position, seq: followed.seq };
        moved[stream] = JSON.stringify(this.marks.sign({ kind: 'read', id: stream, attempt: 0 }, mark, this.keepSeconds));
      }
      if (Object.keys(moved).length) await this.commands.hset(keys.read, moved).catch((error: Error) => this.onError(error));
    }
  }
}
