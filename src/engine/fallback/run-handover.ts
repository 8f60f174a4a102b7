import type { Adapter } from '../adapters/load.ts';
import { resetTime } from './limit-words.ts';
import { takeOver } from './brief.ts';
import { freshNotes, type TurnWatcher } from './work-notes.ts';
import type { FallbackChain } from './chain.ts';
import type { SessionConfig, SessionHandover, SessionOptions } from '../session/session-config.ts';
import { TURN_OPTION_NAMES } from '../adapters/turn-options.ts';
import { effectiveMode, unsupportedMode } from '../adapters/permissions.ts';

/** What a run's move to another CLI needs: the CLIs there are, its chat's chain, what its turn did, and who hears of it. */
export interface RunHandoverParts {
  adapters: ReadonlyMap<string, Adapter>;
  chain: FallbackChain | undefined;
  watcher: () => TurnWatcher;
  /** The run goes on in `to`: its record and its chat hear it, in one line. */
  moved: (to: string, line: string) => void;
}

/**
 * How a run goes on when a quota or rate limit stops its CLI: in the next CLI of its chat's
 * fallback chain that is not limited, briefed on the task and what the run did so far, with
 * the CLI's default model (the first CLI's model means nothing to another). A run is one task:
 * it ends where it is, with no return once the first CLI's limit resets.
 */
export function runHandover(run: { task: string; number: number }, session: SessionConfig, parts: RunHandoverParts): SessionHandover {
  const limited = new Map<string, number>();
  return {
    async afterLimit(outcome, prompt) {
      const now = Date.now();
      const from = session.adapter.name;
      limited.set(from, resetTime(outcome.limit!, now));
      const mode = session.permissions === 'safe' || session.permissions === 'ask' ? session.permissions : undefined;
      const unfit = (cli: string) => !parts.adapters.has(cli) || (mode !== undefined && unsupportedMode(parts.adapters.get(cli)!, mode) !== undefined);
      const cannot = (cli: string) => (limited.get(cli) ?? 0) > now || unfit(cli);
      const next = takeOver({
        from,
        limit: outcome.limit!,
        now,
        chain: parts.chain,
        cannot,
        notes: freshNotes(from),
        prompt: run.task,
        watcher: parts.watcher(),
      });
      if (!next) return undefined;
      const adapter = parts.adapters.get(next.to)!;
      session.adapter = adapter;
      session.options = fitted(session.options ?? {}, adapter);
      // A run that asks, on a CLI that cannot: it only reads there, as it would have been started.
      if (session.permissions === 'ask' && effectiveMode(adapter, 'ask') === 'safe') session.permissions = 'safe';
      parts.moved(next.to, `↪️ ${next.to} took over #${run.number} from ${from}: ${next.reason}`);
      return { prompt: `${next.brief}\n\n${prompt}`, resumeId: undefined };
    },
  };
}

/** The run's options another CLI can take: its model is the first CLI's (the CLI's default instead), and options it has no flag for go. */
function fitted(options: SessionOptions, adapter: Adapter): SessionOptions {
  const kept: SessionOptions = { ...options };
  delete kept.model;
  for (const name of TURN_OPTION_NAMES) if (name !== 'cwd' && !adapter.options[name]) delete kept[name];
  return kept;
}
