import type { AgentEvent, Usage } from '../../kernel/protocols/events.ts';
import { meteringOf, type Metering } from '../../kernel/protocols/index.ts';
import { costOf, type PriceTable } from './prices.ts';

/** What prices work: each CLI's adapter (its dialect says what its output tells of cost), and the price table. */
type CostsOf = { adapters: ReadonlyMap<string, { protocol: string }>; prices: PriceTable };

/**
 * Why work on this CLI and model cannot be held to a budget (neither the CLI nor the price
 * table gives a price), or undefined when it can (or the CLI is not one of `adapters`).
 */
export function unpricedReason({ adapters, prices }: CostsOf, cli: string, model?: string): string | undefined {
  const metering = meteringOf(adapters.get(cli)?.protocol ?? '');
  if (metering.reportsCost || !adapters.has(cli)) return undefined;
  const named = model ?? prices.defaultModel(cli);
  const reporting = [...adapters].filter(([, adapter]) => meteringOf(adapter.protocol).reportsUsage).map(([name]) => name);
  if (!metering.reportsUsage)
    return `${cli} reports neither a cost nor the tokens it uses, so the bridge cannot tell when a budget is reached: run it without --budget, or on a CLI that reports them (${reporting.join(', ')}).`;
  if (!named)
    return `The bridge does not know which model ${cli} runs when none is named, so it cannot price its work: name one with --model (a model of the price table), or set "defaults": {"${cli}": "<model>"} in BRIDGE_DATA_DIR/prices.json.`;
  if (!prices.priceOf(named))
    return `The model "${named}" has no price in the price table, and ${cli} reports no cost of its own, so a budget cannot be held: add it to BRIDGE_DATA_DIR/prices.json ({"models": {"${named}": {"input": …, "output": …}}}, dollars per million tokens), or run without --budget.`;
  return undefined;
}

/**
 * What a turn or a run has cost so far, priced as its CLI's output streams: each model call's
 * usage at its model's price (the same call reported again replaces what it said), and the
 * CLI's own cost where it gives one at the end. A CLI in walls whose credential the bridge
 * holds: the calls its credential proxy metered are the truth, and what the CLI says of
 * itself is not added (every call it makes goes through that proxy, as does any call its
 * tools make there, which it would not report).
 */
export class CostMeter {
  private readonly calls = new Map<string, number>();
  private readonly proxied = new Map<string, number>();
  private loose = 0;
  private reported: number | undefined;
  /** The model the CLI said it runs (its `started` event): over the one it was asked for, or the table's guess. */
  private started: string | undefined;
  private metered = false;
  private readonly prices: PriceTable;
  private readonly metering: Metering;
  private readonly model: string | undefined;

  /** For work on `cli`, whose output is in `protocol`, on `model`: else on the one it runs when none is named. */
  constructor(prices: PriceTable, cli: string, protocol: string | undefined, model: string | undefined) {
    this.prices = prices;
    this.metering = meteringOf(protocol ?? '');
    this.model = model ?? prices.defaultModel(cli);
  }

  /** Takes an event of the CLI's; returns the cost so far. */
  observe(event: AgentEvent): number {
    if (event.type === 'usage' && event.proxy) {
      const usd = event.proxy.costUsd ?? this.price(event.usage, event.model ?? this.started ?? this.model, false);
      this.proxied.set(event.messageId ?? `#${this.proxied.size}`, usd ?? 0);
    } else if (event.type === 'started' && event.model) this.started = event.model;
    else if (event.type === 'usage') {
      const usd = this.price(event.usage, event.model ?? this.started ?? this.model);
      if (usd !== undefined) {
        this.metered = true;
        if (event.messageId) this.calls.set(event.messageId, usd);
        else this.loose += usd;
      }
    } else if (event.type === 'result') {
      if (event.costUsd !== undefined) this.reported = (this.reported ?? 0) + event.costUsd;
      else if (!this.metered && event.usage) this.loose += this.price(event.usage, this.started ?? this.model) ?? 0;
    }
    return this.usd;
  }

  /** The cost so far: the CLI's own figure once it gave one (never below what was metered), else the metered one. */
  get usd(): number {
    if (this.proxied.size) return [...this.proxied.values()].reduce((sum, usd) => sum + usd, 0);
    const metered = [...this.calls.values()].reduce((sum, usd) => sum + usd, this.loose);
    return this.reported === undefined ? metered : Math.max(this.reported, metered);
  }

  /** Whether anything could be priced (a model of the table, or the CLI's own cost). */
  get priced(): boolean {
    return this.metered || this.reported !== undefined || this.loose > 0 || this.proxied.size > 0;
  }

  /** `asReported`: the CLI's own usage, whose input may include the cached tokens; the proxy's never does. */
  private price(usage: Usage, model: string | undefined, asReported = true): number | undefined {
    const price = this.prices.priceOf(model);
    if (!price) return undefined;
    const cached = asReported && this.metering.inputIncludesCache ? (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) : 0;
    return costOf({ ...usage, inputTokens: Math.max(0, usage.inputTokens - cached) }, price);
  }
}
