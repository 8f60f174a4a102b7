import { checkMetrics } from './metrics-check.ts';
import type { BridgeConfig } from '../config/config.ts';
import { checkCli } from './cli-checks.ts';
import { checkModelApi } from './model-api-check.ts';
import { checkDataDir, checkNode } from './system-checks.ts';
import { checkApiAddress, checkMcpListen, checkRedis, checkTranscription, checkWebAddress, checkHooks } from './service-checks.ts';
import type { TransportKind, TransportSources } from '../ports/chat-transport.ts';
import { checkAgentUser } from './agent-user-check.ts';
import { checkSandbox } from './sandbox-check.ts';
import { runAgentsAs } from '../process/agent-user.ts';
import type { CheckResult } from '../ports/check-result.ts';

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
  for (const transport of transports) say(await transport.check(sources));
  runAgentsAs(config.agentUser);
  say(checkAgentUser(config.agentUser));
  say(checkSandbox(config.sandbox));
  for (const adapter of config.adapters.values()) {
    const cli = await checkCli(adapter, config.cliEnv, config.defaultCli);
    say(cli);
    // A CLI nothing needs (not installed, optional) is not asked after either.
    const api = cli.some((result) => result.optional) ? undefined : await checkModelApi(adapter, config.cliEnv, config.sandbox.decision.on);
    if (api) say(api);
  }
  say(await checkMcpListen(config.mcp));
  if (config.redisUrl) say(await checkRedis(config.redisUrl));
  if (config.transcribe) say(await checkTranscription(config.transcribe));
  if (config.api) say(await checkApiAddress(config.api));
  if (config.web) say(await checkWebAddress(config.web));
  if (config.hooks.length) say(checkHooks(config.hooks, config.web));
  say(await checkMetrics(config.metrics, config.web));
  return ok;
}
