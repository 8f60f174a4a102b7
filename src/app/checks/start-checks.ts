import type { BridgeConfig } from '../../services/config/config.ts';
import type { CheckResult } from '../../kernel/ports/check-result.ts';
import { checkCli } from './cli-checks.ts';
import { checkSessionsWritable } from './sessions-check.ts';

/**
 * At start, each CLI is checked as `npm run doctor` checks it, all at once: what one cannot
 * work without (the binary, a login or a key) is said in one line per CLI, with how to give
 * it, before the first message fails on it. A CLI nothing needs (not installed, not the
 * default) is no fault here either. `cancel` stops the CLIs still asked when the bridge
 * stops first (droid waits seconds on its backend offline).
 */
export async function cliProblems(config: Pick<BridgeConfig, 'adapters' | 'cliEnv' | 'defaultCli' | 'sandbox'>, cancel: AbortSignal): Promise<string[]> {
  const checked = await Promise.all(
    [...config.adapters.values()].map(async (adapter) => {
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
