import { join } from 'node:path';
import type { BridgeConfig } from '../config.ts';
import { checkCli, optionalUnlessNeeded } from './cli-checks.ts';
import { checkMetrics } from './metrics-check.ts';
import { checkModelApi } from './model-api-check.ts';
import { checkDataDir, checkNode, checkRunningBridge } from './system-checks.ts';
import { BRIDGE_LOCK, runningHolder } from '../../kernel/store/data-lock.ts';
import { checkApiAddress, checkMcpListen, checkRedis, checkTranscription, checkWebAddress, checkHooks } from './service-checks.ts';
import type { TransportKind, TransportSources } from '../../kernel/ports/transport.ts';
import { checkAgentUser, checkSandbox } from './sandbox-check.ts';
import { inTrialWalls } from './trial-walls.ts';
import { checkSessionsWritable } from './sessions-check.ts';
import { runAgentsAs } from '../../engine/process/agent-user.ts';
import type { CheckResult } from '../../kernel/ports/check-result.ts';

/**
 * Every check of `npm run doctor`, in the order a setup is built: the machine, the data, the
 * bot, the CLIs, then the services that are configured. Each result is reported as soon as
 * it is known. Nothing is changed: ports are let go, no file or directory is made.
 */
export async function runChecks(
  config: BridgeConfig,
  transports: readonly TransportKind[],
  sources: TransportSources,
  report: (result: CheckResult) => void,
): Promise<boolean> {
  let ok = true;
  const say = (results: CheckResult | CheckResult[]) => {
    for (const result of [results].flat()) {
      ok &&= result.ok;
      report(result);
    }
  };
  say(checkNode());
  say(await checkDataDir(config.dataDir));
  // A bridge running on this data directory listens on its own ports: those are no conflict.
  const running = await runningHolder(join(config.dataDir, BRIDGE_LOCK));
  if (running) say(checkRunningBridge(running));
  for (const transport of transports) say(await transport.check(sources));
  runAgentsAs(config.agentUser);
  say(checkAgentUser(config.agentUser, config.sandbox));
  say(checkSandbox(config.sandbox));
  // With the sandbox on, each CLI is asked inside walls like the bridge's, in a folder removed after.
  await inTrialWalls(config.sandbox, config.adapters.values(), async (cwd) => {
    for (const adapter of config.adapters.values()) {
      const cli = await checkCli(adapter, config.cliEnv, config.defaultCli, undefined, cwd ? { cwd } : undefined);
      // A CLI that is not there, or does not run, is not asked after its model API.
      const api = cli[0]?.ok && !cli[0].optional ? await checkModelApi(adapter, config.cliEnv, config.sandbox.decision.on) : undefined;
      const sessions = checkSessionsWritable(adapter, config.cliEnv, config.sandbox, cli);
      say(optionalUnlessNeeded(adapter, config.defaultCli, [...cli, sessions ?? [], api ?? []].flat()));
    }
  });
  say(await checkMcpListen(config.mcp, running));
  if (config.redisUrl) say(await checkRedis(config.redisUrl));
  if (config.transcribe) say(await checkTranscription(config.transcribe));
  if (config.api) say(await checkApiAddress(config.api, running));
  if (config.web) say(await checkWebAddress(config.web, running));
  if (config.hooks.length) say(checkHooks(config.hooks, config.web));
  say(await checkMetrics(config.metrics, config.web, running));
  return ok;
}
