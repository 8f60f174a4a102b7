import { chatKey, type ChatRef, type Outbound } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { budgetRefusalText, budgetWarningText, personBudgetRefusalText, personBudgetWarningText } from '../../work/presentation/usage.ts';
import type { ResultEvent, Usage } from '../../kernel/protocols/events.ts';
import { displayName, paidBy, type SubagentRunRecord } from '../../work/subagents/record.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import { msUntilReset, type DailyBudget } from '../../engine/usage/budget.ts';
import type { Person, Spend, UsageLedger } from '../../engine/usage/usage-ledger.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { ChatSession } from '../session/chat-session.ts';

/** What a chat, and the person asking, may still spend today: why they may start no new turn or run now, or undefined. */
export type WorkBudget = Pick<Spending, 'refusal'>;

/**
 * What turns and runs cost, and the daily budgets held to it: every turn's and run's cost
 * goes to the ledger, for its chat and for the person it is for; a chat (and a person) hears
 * once a day when it nears its budget, and past it new turns and spawns are refused until the
 * budget's day ends.
 */
export class Spending {
  constructor(
    private readonly options: {
      ledger: UsageLedger;
      budget: DailyBudget;
      personBudget?: DailyBudget;
      /** What a turn whose CLI gives no cost (codex) costs, from its tokens at the price table's prices; undefined when its model has none. */
      priceTurn?: (cli: string, model: string | undefined, result: ResultEvent) => number | undefined;
      out: Outbound;
      /** Told what each turn and run used and cost, as it is recorded (the metrics). */
      spent?: (work: 'turn' | 'run', spend: { cli: string; model: string | undefined; usage: Usage | undefined; costUsd: number | undefined }) => void;
      log: Log;
    },
  ) {}

  /** Why the chat, or the person (`<transport>:<id>`) asking there, may start no new turn or run now, or undefined. */
  refusal(key: string, person?: string): string | undefined {
    const { budget, personBudget, ledger } = this.options;
    const spent = budget.spent(key);
    if (spent !== undefined) return budgetRefusalText(spent, budget.limitUsd!, msUntilReset());
    const theirs = person === undefined ? undefined : personBudget?.spent(person);
    return theirs === undefined ? undefined : personBudgetRefusalText(ledger.nameOf(person!), theirs, personBudget!.limitUsd!, msUntilReset());
  }

  /** What a person has left to spend today, when their day has a budget. */
  personLeft(person: string): number | undefined {
    return this.options.personBudget?.left(person);
  }

  /**
   * A main turn ended, however it ended and whatever its CLI: counted, with what it cost where
   * known (as its credential proxy metered it, else as its CLI said, or its tokens at the
   * table's prices), for the person it was for.
   */
  turnEnded(chat: ChatSession, outcome: TurnOutcome, person?: Person): void {
    // What the credential proxy metered (walls) is the truth, also of a turn that ended with no result.
    const result = outcome.result ?? (outcome.metered && { type: 'result' as const, text: '', isError: true, usage: outcome.metered.usage });
    const costUsd = outcome.metered?.costUsd ?? (result && (result.costUsd ?? this.options.priceTurn?.(chat.record.cli, chat.record.model, result)));
    this.record('turn', chatKey(chat.address), chat.address, result?.usage, { cli: chat.record.cli, model: chat.record.model, costUsd, person });
  }

  /** A run ended, however it ended: counted, with what it cost where known, charged to the chat that started it and to the person who did. */
  runEnded(run: SubagentRunRecord): void {
    // Stopped while it waited in the queue: it never ran.
    if (run.startedAt === undefined) return;
    const person = paidBy(run);
    this.record('run', run.requesterKey, run.chat, run.usage, {
      cli: run.cli,
      model: run.model,
      costUsd: run.costUsd,
      run: { runId: run.runId, number: run.number, label: displayName(run) },
      ...(person ? { person: { key: person, ...(run.requester.kind === 'user' && run.requester.name ? { name: run.requester.name } : {}) } } : {}),
    });
  }

  /** What a turn or run used and cost, told (the metrics) and recorded for its chat and person, who hear when they near their budget. */
  private record(work: 'turn' | 'run', key: string, address: ChatRef, usage: Usage | undefined, spend: Omit<Spend, 'inputTokens' | 'outputTokens'>): void {
    const { ledger, budget, personBudget, out, log } = this.options;
    // In the ledger's order: the CLI and model, the tokens, the cost, and whose it is.
    const { cli, model, ...rest } = spend;
    const entry: Spend = { cli, model, inputTokens: usage?.inputTokens, outputTokens: usage?.outputTokens, ...rest };
    if (usage || rest.costUsd !== undefined) this.options.spent?.(work, { cli, model, usage, costUsd: rest.costUsd });
    const before = ledger.costOn(key);
    const personBefore = entry.person ? ledger.personCostOn(entry.person.key) : 0;
    void ledger
      .record(key, entry)
      .then(async (after) => {
        if (budget.crossedWarning(before, after)) await out.send(address, plain(budgetWarningText(after, budget.limitUsd!)));
        const person = entry.person;
        if (!person || !personBudget) return;
        const theirs = ledger.personCostOn(person.key);
        if (personBudget.crossedWarning(personBefore, theirs))
          await out.send(address, plain(personBudgetWarningText(ledger.nameOf(person.key), theirs, personBudget.limitUsd!)));
      })
      .catch((error: Error) => log.error({ chat: key, err: error }, 'recording usage failed'));
  }
}
