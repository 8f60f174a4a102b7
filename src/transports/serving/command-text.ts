import type { TransportHost } from '../../kernel/ports/transport.ts';

/** The bridge's command names, lower-cased: what a word people write is matched against. */
export function commandNames(host: Pick<TransportHost, 'commands'>): ReadonlySet<string> {
  return new Set(host.commands.map((c) => c.name.toLowerCase()));
}

/**
 * `status now` (or `/status now`) → `/status now` when `status` is a command; undefined
 * otherwise. `bang`: `!status` is one too (Matrix, whose clients take `/…` for themselves).
 */
export function asCommand(text: string, commands: ReadonlySet<string>, bang = false): string | undefined {
  const match = (bang ? /^[/!]?([A-Za-z][\w-]*)(\s[\s\S]*)?$/ : /^\/?([A-Za-z][\w-]*)(\s[\s\S]*)?$/).exec(text.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  return commands.has(name) ? `/${name}${match[2] ?? ''}` : undefined;
}

/** A name as a regular expression matches it, letter for letter. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
