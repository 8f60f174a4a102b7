import { nanoid } from 'nanoid';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import type { Schedule } from './schedule.ts';
import type { ScheduleStore } from './schedule-store.ts';
import { nextFire } from './timing.ts';

/** The longest a Node timer waits (about 24.8 days): a later schedule is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Starts a schedule's work (`late`: it came due while the bridge was down); 'refused': it did nothing, and will do nothing until someone resumes it (it is paused). */
export type FireSchedule = (schedule: Schedule, late: boolean) => Promise<'refused' | void>;

export type NewSchedule = Pick<Schedule, 'chat' | 'prompt' | 'timing' | 'by' | 'fromMessage'> & { spawn?: string };

/**
 * Fires schedules when they come due, with one timer for the soonest. Each firing is saved
 * (its next time) before it runs, so a crash never fires one twice; one that came due while
 * the bridge was down fires once at the start, and says it is late.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  /** Given at the start: nothing fires before the bridge is up. */
  private fire: FireSchedule | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: { store: ScheduleStore; timeZone: string; log: Log }) {}

  /** What schedules are read in: BRIDGE_TZ, or the machine's. */
  get timeZone(): string {
    return this.options.timeZone;
  }

  async start(fire: FireSchedule, now = Date.now()): Promise<void> {
    this.fire = fire;
    await this.fireDue(now, true);
  }

  forChat(address: ChatRef): Schedule[] {
    return this.options.store.forChat(chatKey(address));
  }

  find(address: ChatRef, ref: string): Schedule | undefined {
    return this.options.store.find(chatKey(address), ref);
  }

  async add(input: NewSchedule, now = Date.now()): Promise<Schedule> {
    const key = chatKey(input.chat);
    const schedule: Schedule = {
      id: nanoid(10),
      number: this.options.store.nextNumber(key),
      chatKey: key,
      ...input,
      paused: false,
      createdAt: now,
      fired: 0,
      nextAt: nextFire(input.timing, now, this.timeZone),
    };
    await this.options.store.save(schedule);
    this.arm();
    return schedule;
  }

  /** The schedule the /every or /at of this message (`<chat>#<message id>`) made, if it made one. */
  madeFrom(key: string): Schedule | undefined {
    return this.options.store.all().find((schedule) => schedule.fromMessage === key);
  }

  async pause(schedule: Schedule): Promise<void> {
    await this.options.store.save({ ...schedule, paused: true });
    this.arm();
  }

  /** Goes on from now: what it missed while paused is not made up. */
  async resume(schedule: Schedule, now = Date.now()): Promise<Schedule> {
    const resumed = { ...schedule, paused: false, nextAt: nextFire(schedule.timing, now, this.timeZone) };
    await this.options.store.save(resumed);
    this.arm();
    return resumed;
  }

  async delete(schedule: Schedule): Promise<void> {
    await this.options.store.delete(schedule.id);
    this.arm();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.closed || !this.fire) return;
    const due = this.options.store
      .all()
      .filter((s) => !s.paused && s.nextAt !== undefined)
      .map((s) => s.nextAt!);
    if (!due.length) return;
    const wait = Math.min(Math.max(Math.min(...due) - Date.now(), 0), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.ticking = this.ticking
        .then(() => this.fireDue(Date.now(), false))
        .catch((error: Error) => this.options.log.error({ err: error }, 'firing schedules failed'));
    }, wait);
  }

  private async fireDue(now: number, late: boolean): Promise<void> {
    for (const schedule of this.options.store.all())
      if (!schedule.paused && schedule.nextAt !== undefined && schedule.nextAt <= now) await this.fireOne(schedule, now, late);
    this.arm();
  }

  /** Saves its next time (none for a one-shot), then runs it. */
  private async fireOne(schedule: Schedule, now: number, late: boolean): Promise<void> {
    // From the time it was due, so an interval keeps its rhythm; from now when that is past (a late or slow firing).
    const due = schedule.nextAt ?? now;
    const following = nextFire(schedule.timing, due, this.timeZone);
    const next = following !== undefined && following <= now ? nextFire(schedule.timing, now, this.timeZone) : following;
    const updated: Schedule = { ...schedule, lastAt: now, fired: schedule.fired + 1, nextAt: next };
    await this.options.store.save(updated);
    this.options.log.info({ chat: schedule.chatKey, schedule: schedule.id, late }, `schedule #${schedule.number} fires`);
    try {
      // Refused (its maker is no longer allowed): paused, so the chat hears of it once, not at every firing.
      if ((await this.fire!(updated, late)) === 'refused') {
        const current = this.options.store.all().find((s) => s.id === updated.id);
        if (current && !current.paused) await this.pause(current);
      }
    } catch (error) {
      this.options.log.error({ err: error, chat: schedule.chatKey }, `schedule #${schedule.number} could not start`);
    }
  }
}
