import type { BridgeConfig } from '../config.ts';
import type { CheckResult } from '../../kernel/ports/check-result.ts';
import { checkCli, cliNeeded } from './cli-checks.ts';
import { checkSessionsWritable } from './sessions-check.ts';

/**
 * At start, each CLI the bridge needs is checked as `npm run doctor` checks it, all at once:
 * the default, one named by its BRIDGE_<NAME>_COMMAND, and those of the fallback chain. What
 * one cannot work without (the binary, a login or a key) is said in one line per CLI, with how
 * to give it, before the first message fails on it. The others are the doctor's to check, and
 * a chat that picks one hears from it then: asking every installed CLI at every start cost
 * seconds of CPU (a Node CLI such as Gemini's starts twice to print its version). `cancel`
 * stops the CLIs still asked when the bridge stops first (droid waits seconds on its backend
 * offline).
 */
export async function cliProblems(
  config: Pick<BridgeConfig, 'adapters' | 'cliEnv' | 'defaultCli' | 'sandbox' | 'fallback'>,
  cancel: AbortSignal,
): Promise<string[]> {
  const needed = [...config.adapters.values()].filter((adapter) => cliNeeded(adapter, config.defaultCli) || config.fallback?.includes(adapter.name));
  const checked = await Promise.all(
    needed.map(async (adapter) => {
      const cli = await checkCli(adapter, config.cliEnv, config.defaultCli, cancel);
      return problemLine(adapter.name, [...cli, checkSessionsWritable(adapter, config.cliEnv, config.sandbox, cli) ?? []].flat());
    }),
  );
  return cancel.aborted ? [] : checked.filter((line): line is string => line !== undefined);
}

/** What a CLI lacks, in one line with its fix: its first failed check. */
export function problemLine(cli: string, results: CheckResult[]): string | undefined {
  const failed = results.find((result) => !result.ok);
  if (!failed) return undefined;
  const what = failed.subject.endsWith(' credentials')
    ? `${cli} has no credentials`
    : failed.subject.endsWith(' sessions')
      ? `${cli} saves no session`
      : `${cli} cannot run`;
  return `${what}: ${failed.found.replace(/\.$/, '')}. ${failed.fix ?? ''}`.trim();
}
