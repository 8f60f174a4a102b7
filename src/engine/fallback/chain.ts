import { ConfigError } from '../../kernel/errors/config-error.ts';

/**
 * A fallback chain (`claude>codex>droid`): the CLIs a turn or run goes on in, in order, when
 * its CLI's quota or rate limit stops it. Read from BRIDGE_FALLBACK and from `/fallback`.
 */
export type FallbackChain = readonly string[];

/** The chain `text` writes, or why it is none: each a known CLI, none twice, at least two. */
export function parseChain(text: string, known: readonly string[]): { chain: FallbackChain } | { problem: string } {
  const names = text.split('>').map((name) => name.trim().toLowerCase());
  if (names.some((name) => !name)) return { problem: `"${text}" is not a chain of CLIs: write them between >, as claude>codex>droid` };
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length)
    return { problem: `unknown CLI${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')}; known: ${known.join(', ')}` };
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) return { problem: `${twice} is named twice in "${text}": each CLI once` };
  if (names.length < 2) return { problem: `"${text}" names one CLI: a fallback needs at least two, as claude>codex` };
  return { chain: names };
}

/** BRIDGE_FALLBACK: the chain, or none (unset, or `off`: a turn waits for its quota). */
export function fallbackChain(raw: string | undefined, known: string[]): FallbackChain | undefined {
  const text = raw?.trim();
  if (!text || text.toLowerCase() === 'off') return undefined;
  const parsed = parseChain(text, known);
  if ('problem' in parsed) throw new ConfigError(`BRIDGE_FALLBACK: ${parsed.problem}`);
  return parsed.chain;
}

/** The CLI that goes on after `from`, skipping those still limited: the next in the chain (the first, for a CLI the chain does not name). */
export function nextInChain(chain: FallbackChain, from: string, limited: (cli: string) => boolean): string | undefined {
  const at = chain.indexOf(from);
  const after = at >= 0 ? [...chain.slice(at + 1), ...chain.slice(0, at)] : chain;
  return after.find((cli) => cli !== from && !limited(cli));
}

export function writeChain(chain: FallbackChain): string {
  return chain.join('>');
}
