import type { MetricsConfig } from './metrics-settings.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { MetricsSdk } from './metrics.ts';
import { MetricsListener } from './metrics-server.ts';

/**
 * What the bridge and workers do with their metrics at the start: BRIDGE_METRICS_ADDR's
 * listener when set (a port in use is a ConfigError), and a line saying where metrics go.
 */
export async function startMetrics(config: MetricsConfig, sdk: MetricsSdk, log: Log): Promise<MetricsListener | undefined> {
  if (!sdk.enabled) {
    log.info('metrics are off (OTEL_SDK_DISABLED=true)');
    return undefined;
  }
  const listener = config.listen ? await MetricsListener.start(config.listen, () => sdk.scrape(), config.token) : undefined;
  if (listener)
    log.info(
      `metrics on ${listener.url} (${config.token ? 'to this machine, and to others with BRIDGE_METRICS_TOKEN' : 'to whoever reaches it: BRIDGE_METRICS_TOKEN would require a token of others'})`,
    );
  if (sdk.pushedTo) log.info(`metrics exported to ${sdk.pushedTo}`);
  return listener;
}
