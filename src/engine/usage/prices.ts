import { readOperatorFile } from '../../kernel/errors/operator-file.ts';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, describeIssues } from '../../kernel/errors/config-error.ts';
import type { Usage } from '../../kernel/protocols/events.ts';
// Part of the code, so it travels with it into the build's bundle.
import shippedPrices from './prices.json' with { type: 'json' };

const dollars = z.number().finite().min(0).max(10_000);
/** US dollars per million tokens of each kind; prompt tokens read from the cache or written to it cost the input price when not given. */
const priceSchema = z.object({ input: dollars, output: dollars, cacheRead: dollars.optional(), cacheWrite: dollars.optional() }).strict();
type Price = z.infer<typeof priceSchema>;
const fileSchema = z
  .object({
    $comment: z.string().optional(),
    models: z.record(z.string().min(1).max(200), priceSchema).optional(),
    defaults: z.record(z.string().min(1).max(64), z.string().min(1).max(200)).optional(),
    providers: z.record(z.string().min(1).max(64), z.array(z.string().min(1).max(200)).min(1)).optional(),
  })
  .strict();

/** The operator's own prices, beside the shipped ones: in the data directory. */
export const PRICES_FILE = 'prices.json';

/**
 * What a model costs per token, from the table shipped in the repository (`prices.json`
 * beside this file) with the operator's `BRIDGE_DATA_DIR/prices.json` over it, entry by entry.
 * A key ending in `*` covers every model it begins; the longest key that fits wins.
 */
export class PriceTable {
  constructor(
    private readonly models: Readonly<Record<string, Price>>,
    private readonly defaults: Readonly<Record<string, string>> = {},
    private readonly providers: Readonly<Record<string, readonly string[]>> = {},
  ) {}

  /**
   * The shipped table with the operator's file (when there is one) over it, and the model each
   * CLI runs when none is named as its adapter says (`defaultModel`), unless that file says;
   * a bad file stops the start, naming it and the field.
   */
  static async load(dataDir: string, clis: Iterable<{ name: string; defaultModel?: string | undefined }> = []): Promise<PriceTable> {
    const shipped = pricesOf(shippedPrices, 'src/engine/usage/prices.json');
    const file = join(dataDir, PRICES_FILE);
    const text = await readOperatorFile(file);
    const own = text === undefined ? {} : parsePrices(text, file);
    const defaults = Object.fromEntries([...clis].flatMap((cli) => (cli.defaultModel ? [[cli.name, cli.defaultModel]] : [])));
    return new PriceTable({ ...shipped.models, ...own.models }, { ...defaults, ...own.defaults }, { ...shipped.providers, ...own.providers });
  }

  /** The model a CLI runs when none is named, where the table says. */
  defaultModel(cli: string): string | undefined {
    return Object.hasOwn(this.defaults, cli) ? this.defaults[cli] : undefined;
  }

  /** The price of a model (`claude-opus-4-8[1m]` and dated names like `claude-haiku-4-5-20251001` are their model's), or undefined. */
  priceOf(model: string | undefined): Price | undefined {
    const key = this.entryOf(model);
    return key === undefined ? undefined : this.models[key];
  }

  /**
   * What a model of a provider's API costs: its own price, else the highest of every kind among
   * that provider's models (`providers` in the table: the names its models begin with), so work
   * of no known price is never counted cheaper than it may be. Undefined when neither is known.
   */
  priceOrHighest(model: string | undefined, provider: string): { price: Price; highest: boolean } | undefined {
    const own = this.priceOf(model);
    if (own) return { price: own, highest: false };
    const starts = Object.hasOwn(this.providers, provider) ? this.providers[provider]! : [];
    const theirs = Object.entries(this.models)
      .filter(([key]) => starts.some((start) => key.startsWith(start)))
      .map(([, price]) => price);
    if (!theirs.length) return undefined;
    const most = (kind: (price: Price) => number) => Math.max(...theirs.map(kind));
    const price = {
      input: most((p) => p.input),
      output: most((p) => p.output),
      cacheRead: most((p) => p.cacheRead ?? p.input),
      cacheWrite: most((p) => p.cacheWrite ?? p.input),
    };
    return { price, highest: true };
  }

  /** The table's name for a model (its entry's key, `claude-sonnet-*` for a model it covers), or undefined: a name from a fixed set, for metrics. */
  entryOf(model: string | undefined): string | undefined {
    if (!model) return undefined;
    const name = modelName(model);
    if (Object.hasOwn(this.models, name)) return name;
    const covering = Object.keys(this.models).filter((key) => key.endsWith('*') && name.startsWith(key.slice(0, -1)));
    return covering.sort((a, b) => b.length - a.length)[0];
  }
}

/** What usage costs at a price, in US dollars. Input tokens are those not served from or written to the cache, as Anthropic and codex's app server count them. */
export function costOf(usage: Usage, price: Price): number {
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  return (
    usage.inputTokens * perToken(price.input) +
    usage.outputTokens * perToken(price.output) +
    (usage.cacheReadTokens ?? 0) * perToken(price.cacheRead ?? price.input) +
    (usage.cacheWriteTokens ?? 0) * perToken(price.cacheWrite ?? price.input)
  );
}

/** The model a name means: without a context-window tag (`[1m]`) or a release date. */
function modelName(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-\d{8}$/, '');
}

export function parsePrices(text: string, file: string): z.infer<typeof fileSchema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message.slice(0, 120)})`);
  }
  return pricesOf(json, file);
}

/** A price file's content, checked. */
function pricesOf(json: unknown, file: string): z.infer<typeof fileSchema> {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success)
    throw new ConfigError(
      `${file}: ${describeIssues(parsed.error.issues)}. Prices are US dollars per million tokens: {"models": {"<model>": {"input": 3, "output": 15}}}`,
    );
  return parsed.data;
}
