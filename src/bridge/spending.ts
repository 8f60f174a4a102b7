import { chatKey, type ChatRef, type Outbound } from '../ports/transport.ts';
import { plain } from '../rich/index.ts';
import { budgetRefusalText, budgetWarningText } from '../presentation/usage.ts';
import type { Usage } from '../protocols/events.ts';
import { displayName, runAddress, type SubagentRunRecord } from '../subagents/record.ts';
import type { TurnOutcome } from '../session/turn.ts';
import { msUntilReset, type DailyBudget } from '../usage/budget.ts';
import type { Spend, UsageLedger } from '../usage/usage-ledger.ts';
import type { Log } from '../log/logger.ts';
import type { ChatSession } from './chat-session.ts';

/** What a chat may still spend today: why it may start no new turn or run now, or undefined. */
export type WorkBudget = Pick<Spending, 'refusal'>;

/**
 * What turns and runs cost, and the chats' daily budget held to it: every turn's and run's
 * cost goes to the ledger, a chat hears once a day when it nears its budget, and past it new
 * turns and spawns are refused until the budget's day ends.
 */
export class Spending {
  constructor(private readonly options: { ledger: UsageLedger; budget: DailyBudget; out: Outbound; log: Log }) {}

  /** Why the chat may start no new turn or run now, or undefined. */
  refusal(key: string): string | undefined {
    const { budget } = this.options;
    const spent = budget.spent(key);
    return spent === undefined ? undefined : budgetRefusalText(spent, budget.limitUsd!, msUntilReset());
  }

  /** A main turn ended: what it cost, if its CLI said. */
  turnEnded(chat: ChatSession, outcome: TurnOutcome): void {
    const result = outcome.result;
    if (!result?.usage && result?.costUsd === undefined) return;
    this.record(chatKey(chat.address), chat.address, {
      cli: chat.record.cli,
      ...(chat.record.model ? { model: chat.record.model } : {}),
      ...tokens(result.usage),
      ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
    });
  }

  /** A run ended: what it cost, charged to the chat that started it. */
  runEnded(run: SubagentRunRecord): void {
    if (!run.usage && run.costUsd === undefined) return;
    this.record(run.requesterKey, runAddress(run), {
      cli: run.cli,
      ...(run.model ? { model: run.model } : {}),
      ...tokens(run.usage),
      ...(run.costUsd !== undefined ? { costUsd: run.costUsd } : {}),
      run: { runId: run.runId, number: run.number, label: displayName(run) },
    });
  }

  private record(key: string, address: ChatRef, entry: Spend): void {
    const { ledger, budget, out, log } = this.options;
    const before = ledger.costOn(key);
    void ledger
      .record(key, entry)
      .then(async (after) => {
        if (budget.crossedWarning(before, after)) await out.send(address, plain(budgetWarningText(after, budget.limitUsd!)));
      })
      .catch((error: Error) => log.error({ chat: key, err: error }, 'recording usage failed'));
  }
}

function tokens(usage: Usage | undefined): Pick<Spend, 'inputTokens' | 'outputTokens'> {
  return usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : {};
}
