import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAdapters } from '../../src/engine/adapters/load.ts';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';
import { CostMeter, unpricedReason } from '../../src/engine/usage/cost-meter.ts';
import { costOf, PriceTable } from '../../src/engine/usage/prices.ts';

let dataDir: string;
const shippedAdapters = () => loadAdapters(fileURLToPath(new URL('../../adapters/', import.meta.url)), {});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bridge-prices-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('the price table', () => {
  it('prices each kind of token per million, cached ones at their own price (the input price when none is given)', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 400_000 };
    expect(costOf(usage, { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 })).toBeCloseTo(4 + 2 + 0.4 + 2, 10);
    expect(costOf(usage, { input: 1, output: 10 })).toBeCloseTo(1 + 1 + 2 + 0.4, 10);
  });

  it("prices the adapters' default models, and knows a model by its dated or context-tagged names and by a key's * prefix", async () => {
    const prices = await PriceTable.load(dataDir, (await shippedAdapters()).values());
    expect(prices.defaultModel('claude')).toBe('claude-opus-5-5');
    expect(prices.priceOf(prices.defaultModel('claude'))).toEqual({ input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 });
    expect(prices.priceOf(prices.defaultModel('codex'))).toEqual({ input: 5, output: 30, cacheRead: 0.5 });
    expect(prices.priceOf('claude-opus-4-8[1m]')).toEqual(prices.priceOf('claude-opus-4-8'));
    expect(prices.priceOf('claude-haiku-4-5-20251001')).toEqual(prices.priceOf('claude-haiku-4-5'));
    expect(prices.priceOf('claude-sonnet-4-6')).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(prices.priceOf(prices.defaultModel('gemini'))).toEqual({ input: 0.3, output: 2.5, cacheRead: 0.03 });
    expect(prices.priceOf('gemini-3.1-pro-preview')).toEqual({ input: 2, output: 12, cacheRead: 0.2 });
    // A Gemini model the table does not know counts at the highest of Gemini's prices, not at none.
    expect(prices.priceOrHighest('gemini-9-ultra', 'gcp.gemini')).toEqual({ price: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 2 }, highest: true });
    expect(prices.priceOf('mystery-1')).toBeUndefined();
    expect(prices.defaultModel('droid')).toBeUndefined();
  });

  it("takes the operator's prices.json over the shipped entries, model by model", async () => {
    await writeFile(
      join(dataDir, 'prices.json'),
      JSON.stringify({
        models: { 'gpt-5.5': { input: 1, output: 2 }, 'house-*': { input: 0.5, output: 1 } },
        defaults: { droid: 'house-7', codex: 'house-8' },
      }),
    );
    const prices = await PriceTable.load(dataDir, (await shippedAdapters()).values());
    // The operator's default over the adapter's (`defaultModel`).
    expect(prices.defaultModel('codex')).toBe('house-8');
    expect(prices.defaultModel('claude')).toBe('claude-opus-5-5');
    expect(prices.priceOf('gpt-5.5')).toEqual({ input: 1, output: 2 });
    expect(prices.priceOf('claude-opus-5-5')).toEqual({ input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 });
    expect(prices.priceOf(prices.defaultModel('droid'))).toEqual({ input: 0.5, output: 1 });
  });

  it('refuses a bad file naming it and the field', async () => {
    await writeFile(join(dataDir, 'prices.json'), JSON.stringify({ models: { x: { input: -1, output: 1 } } }));
    await expect(PriceTable.load(dataDir)).rejects.toThrow(ConfigError);
    await expect(PriceTable.load(dataDir)).rejects.toThrow(/prices\.json: field "models\.x\.input": Too small/);
    await writeFile(join(dataDir, 'prices.json'), '{"models": ');
    await expect(PriceTable.load(dataDir)).rejects.toThrow(/prices\.json: not valid JSON/);
  });
});

describe('the cost meter', () => {
  it('tells why work cannot be held to a budget, by what its CLI’s dialect reports and the price table', async () => {
    const adapters = await shippedAdapters();
    const costs = { adapters, prices: await PriceTable.load(dataDir, adapters.values()) };
    expect(unpricedReason(costs, 'claude')).toBeUndefined();
    expect(unpricedReason(costs, 'codex')).toBeUndefined();
    expect(unpricedReason(costs, 'codex', 'mystery-1')).toMatch(/^The model "mystery-1" has no price in the price table/);
    expect(unpricedReason(costs, 'droid')).toMatch(/^droid reports neither a cost nor the tokens it uses.*on a CLI that reports them \(claude, codex\)\.$/);
    expect(unpricedReason(costs, 'nobody')).toBeUndefined();
  });

  const prices = new PriceTable({ m: { input: 1, output: 10, cacheRead: 0.1 } });

  it("replaces a model call's usage reported again (claude repeats it on each content block), and adds calls without ids", () => {
    const meter = new CostMeter(prices, 'claude', 'claude-stream-json', 'm');
    const call = (id: string, output: number) => ({ type: 'usage' as const, usage: { inputTokens: 1000, outputTokens: output }, messageId: id });
    meter.observe(call('a', 1));
    expect(meter.observe(call('a', 100))).toBeCloseTo(0.001 + 0.001, 10);
    expect(meter.observe(call('b', 0))).toBeCloseTo(0.003, 10);
    // The CLI's own cost at the end is the truth, never below what was metered.
    expect(meter.observe({ type: 'result', text: '', isError: false, costUsd: 0.01 })).toBe(0.01);
  });

  it('prices by the model the CLI says it runs, over the one it was asked for', () => {
    const meter = new CostMeter(prices, 'claude', 'claude-stream-json', 'unpriced-guess');
    meter.observe({ type: 'started', sessionId: 's', model: 'm' });
    expect(meter.observe({ type: 'usage', usage: { inputTokens: 1_000_000, outputTokens: 0 } })).toBeCloseTo(1, 10);
  });

  it("prices codex's cached input apart from its fresh input, which includes it", () => {
    const meter = new CostMeter(prices, 'codex', 'codex-app-server', 'm');
    expect(meter.observe({ type: 'usage', usage: { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 800_000 } })).toBeCloseTo(0.2 + 0.08, 10);
  });

  it('prices a turn by its result when no call said its usage, and says when nothing could be priced', () => {
    const meter = new CostMeter(prices, 'codex', 'codex-exec-json', 'm');
    expect(meter.observe({ type: 'result', text: '', isError: false, usage: { inputTokens: 1_000_000, outputTokens: 0 } })).toBeCloseTo(1, 10);
    const unknown = new CostMeter(prices, 'codex', 'codex-exec-json', 'other');
    unknown.observe({ type: 'usage', usage: { inputTokens: 5, outputTokens: 5 } });
    expect(unknown.priced).toBe(false);
  });
});
