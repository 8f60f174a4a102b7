import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { DATA_FORMAT } from '../../kernel/store/data-format.ts';
import { own } from '../../kernel/store/own.ts';

/** What a turn or a run cost, as its CLI reported it. */
export interface Spend {
  cli: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Absent when the CLI reports no price (codex reports tokens only). */
  costUsd?: number;
  /** A subagent run (a main turn otherwise): the costliest are listed by /usage. */
  run?: { runId: string; number: number; label: string };
  /** The person it is for (`<transport>:<id>`): who typed the turn or started the run, or made the schedule. None: work nobody typed. */
  person?: Person;
}

/** Someone spending: `<transport>:<id>`, and their name as last seen. */
export interface Person {
  key: string;
  name?: string;
}

/** What one person spent, in the chats asked about. */
export interface PersonSpend extends Person {
  tally: Tally;
  /** The same by chat key. */
  chats: Record<string, Tally>;
}

export interface Tally {
  turns: number;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export type CostlyRun = NonNullable<Spend['run']> & { costUsd: number; day: string };

interface ChatUsage {
  /** UTC day → "cli model" → tally; only the last DAYS_KEPT days. */
  days: Record<string, Record<string, Tally>>;
  total: Record<string, Tally>;
  costliest: CostlyRun[];
}

interface PersonUsage {
  name?: string;
  /** UTC day → chat key → tally; only the last DAYS_KEPT days. */
  days: Record<string, Record<string, Tally>>;
}

interface Data {
  /** The data format it was written in (store/data-format.ts). */
  version: number;
  chats: Record<string, ChatUsage>;
  /** By person: absent in files written before people had budgets, and then empty. */
  people?: Record<string, PersonUsage>;
}

const DAYS_KEPT = 35;
const COSTLIEST_KEPT = 5;

/** The UTC day a time falls on: budgets reset at midnight UTC. */
export function utcDay(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * Every turn's and run's tokens and cost, by chat, UTC day, CLI and model, in
 * `BRIDGE_DATA_DIR/usage.json`: small (a tally per day and CLI, not an entry per turn), and
 * the source of /usage and the daily budget.
 */
export class UsageLedger {
  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<UsageLedger> {
    return new UsageLedger(await openJsonStore<Data>(join(dataDir, 'usage.json'), { version: DATA_FORMAT, chats: {}, people: {} }));
  }

  private get byPerson(): Record<string, PersonUsage> {
    return (this.db.data.people ??= {});
  }

  /** Adds a turn's or a run's spend to its chat's day; returns the chat's cost that day. */
  async record(chatKey: string, spend: Spend, now = Date.now()): Promise<number> {
    const day = utcDay(now);
    const usage = (this.db.data.chats[chatKey] ??= { days: {}, total: {}, costliest: [] });
    const key = spend.model ? `${spend.cli} ${spend.model}` : spend.cli;
    for (const tallies of [(usage.days[day] ??= {}), usage.total]) add((tallies[key] ??= empty()), spend);
    if (spend.run && spend.costUsd) {
      usage.costliest = [...usage.costliest, { ...spend.run, costUsd: spend.costUsd, day }].sort((a, b) => b.costUsd - a.costUsd).slice(0, COSTLIEST_KEPT);
    }
    for (const old of Object.keys(usage.days).sort().slice(0, -DAYS_KEPT)) delete usage.days[old];
    if (spend.person) {
      const person = (this.byPerson[spend.person.key] ??= { days: {} });
      if (spend.person.name) person.name = spend.person.name;
      const chats = (person.days[day] ??= {});
      add((chats[chatKey] ??= empty()), spend);
      for (const old of Object.keys(person.days).sort().slice(0, -DAYS_KEPT)) delete person.days[old];
    }
    await this.db.write();
    return this.costOn(chatKey, day);
  }

  /** The chat's cost on a UTC day (today by default). */
  costOn(chatKey: string, day = utcDay()): number {
    return sum(Object.values(own(own(this.db.data.chats, chatKey)?.days ?? {}, day) ?? {})).costUsd;
  }

  /** A person's name as last seen, when it was. */
  nameOf(person: string): string | undefined {
    return own(this.byPerson, person)?.name;
  }

  /** A person's cost on a UTC day (today by default), across chats. */
  personCostOn(person: string, day = utcDay()): number {
    return sum(Object.values(own(own(this.byPerson, person)?.days ?? {}, day) ?? {})).costUsd;
  }

  /**
   * What each person spent on a UTC day, or on every day kept when none is given, in these
   * chats (all when none are given), costliest first.
   */
  people(options: { day?: string; chatKeys?: readonly string[] } = {}): PersonSpend[] {
    const spends: PersonSpend[] = [];
    for (const [key, usage] of Object.entries(this.byPerson)) {
      const chats: Record<string, Tally> = {};
      for (const [day, byChat] of Object.entries(usage.days)) {
        if (options.day !== undefined && day !== options.day) continue;
        for (const [chat, tally] of Object.entries(byChat)) {
          if (options.chatKeys && !options.chatKeys.includes(chat)) continue;
          chats[chat] = sum([chats[chat] ?? empty(), tally]);
        }
      }
      if (!Object.keys(chats).length) continue;
      spends.push({ key, name: usage.name, tally: sum(Object.values(chats)), chats });
    }
    return spends.sort((a, b) => b.tally.costUsd - a.tally.costUsd || a.key.localeCompare(b.key));
  }

  /** The chats that have spent anything, by key. */
  chats(): string[] {
    return Object.keys(this.db.data.chats);
  }

  /** Every chat's (or these chats') tallies by UTC day and "cli model", oldest day first: the dashboard's chart. */
  byDay(chatKeys?: readonly string[]): { day: string; tallies: Record<string, Tally> }[] {
    const days = new Map<string, Record<string, Tally>>();
    for (const [key, usage] of Object.entries(this.db.data.chats)) {
      if (chatKeys && !chatKeys.includes(key)) continue;
      for (const [day, tallies] of Object.entries(usage.days)) {
        const into = days.get(day) ?? {};
        for (const [what, tally] of Object.entries(tallies)) into[what] = sum([into[what] ?? empty(), tally]);
        days.set(day, into);
      }
    }
    return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, tallies]) => ({ day, tallies }));
  }

  /** Today's and all-time tallies by "cli model", and the costliest runs. */
  report(chatKey: string, now = Date.now()): { today: Record<string, Tally>; total: Record<string, Tally>; costliest: CostlyRun[] } {
    const usage = own(this.db.data.chats, chatKey);
    return { today: { ...usage?.days[utcDay(now)] }, total: { ...usage?.total }, costliest: [...(usage?.costliest ?? [])] };
  }
}

function empty(): Tally {
  return { turns: 0, runs: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
}

function add(tally: Tally, spend: Spend): void {
  if (spend.run) tally.runs++;
  else tally.turns++;
  tally.inputTokens += spend.inputTokens ?? 0;
  tally.outputTokens += spend.outputTokens ?? 0;
  tally.costUsd += spend.costUsd ?? 0;
}

export function sum(tallies: Tally[]): Tally {
  const total = empty();
  for (const tally of tallies) for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
  return total;
}
