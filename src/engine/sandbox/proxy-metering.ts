import type { IncomingMessage } from 'node:http';
import { buffer } from 'node:stream/consumers';
import type { UsageEvent } from '../../kernel/protocols/events.ts';
import { jsonOf } from '../../kernel/protocols/decoder.ts';
import { costOf, type PriceTable } from '../usage/prices.ts';
import type { ModelCall } from './model-usage.ts';

/**
 * How the credential proxy prices the model calls it passes: at the price table's prices, a
 * model of no known price at the highest of its provider's. Where `refuseUnpriced` says why
 * (a person's daily budget is set), a call naming a model of no known price is refused instead.
 */
export interface ProxyMetering {
  prices: PriceTable;
  refuseUnpriced?: string;
}

/** How the bridge's (or a worker's) credential proxies price: its price table, refusing what it cannot price where people have daily budgets. */
export function proxyMetering(config: { prices: PriceTable; personDailyBudgetUsd: number | undefined }): ProxyMetering {
  return {
    prices: config.prices,
    ...(config.personDailyBudgetUsd !== undefined ? { refuseUnpriced: 'a daily budget per person is set (BRIDGE_PERSON_DAILY_BUDGET_USD)' } : {}),
  };
}

/** A request's body, read whole, where its model must be checked before it goes; else undefined (it streams through). */
export function bodyIfChecked(req: IncomingMessage, metering: ProxyMetering | undefined): Promise<Buffer | undefined> {
  if (!metering?.refuseUnpriced || req.method === 'GET' || req.method === 'HEAD') return Promise.resolve(undefined);
  return buffer(req).catch(() => Buffer.alloc(0));
}

/** The model a request body names (`"model"` in its JSON), if it names one. */
export function requestedModel(body: Buffer): string | undefined {
  const model = jsonOf<{ model?: unknown }>(body.toString('utf8'))?.model;
  return typeof model === 'string' && model ? model : undefined;
}

/** Why a request is refused for naming a model of no known price, or undefined. */
export function unpricedModel(body: Buffer, metering: ProxyMetering): string | undefined {
  const model = requestedModel(body);
  if (!model || metering.prices.priceOf(model)) return undefined;
  return `The model "${model}" has no price in the price table, and ${metering.refuseUnpriced}, so the bridge refuses work it cannot price: add the model to BRIDGE_DATA_DIR/prices.json ({"models": {"${model}": {"input": …, "output": …}}}, dollars per million tokens), or use a model that has one.`;
}

/** A call the proxy passed, as the turn's usage event: priced where the table can, authoritative over the CLI's own figures. */
export function meteredEvent(call: ModelCall, metering: ProxyMetering | undefined, requested: string | undefined): UsageEvent {
  const model = call.model ?? requested;
  const priced = metering?.prices.priceOrHighest(model, call.provider);
  return {
    type: 'usage',
    usage: call.usage,
    model,
    messageId: call.id,
    proxy: priced ? { costUsd: costOf(call.usage, priced.price), ...(priced.highest ? { highest: true } : {}) } : {},
  };
}
