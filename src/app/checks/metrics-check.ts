import type { WebConfig } from '../../surfaces/web/web-settings.ts';
import { type CheckResult, optional, pass } from '../../kernel/ports/check-result.ts';
import type { MetricsConfig } from '../../services/telemetry/metrics-settings.ts';
import { checkListen } from './service-checks.ts';
import type { Holder } from '../../kernel/store/data-lock.ts';

/** Where the metrics are served and pushed, and whether BRIDGE_METRICS_ADDR can be listened on. */
export async function checkMetrics(metrics: MetricsConfig, web: WebConfig | undefined, running?: Holder): Promise<CheckResult[]> {
  const subject = 'metrics';
  if (metrics.disabled) return [pass(subject, 'off (OTEL_SDK_DISABLED=true): nothing is recorded, served or exported')];
  const results: CheckResult[] = [];
  const who = metrics.token
    ? 'to this machine, and to others with BRIDGE_METRICS_TOKEN'
    : 'to this machine only (set BRIDGE_METRICS_TOKEN to let others scrape)';
  if (web) results.push(pass(subject, `served at ${web.url}/metrics, ${who}`));
  if (metrics.listen) {
    const { host, port } = metrics.listen;
    const scrapes = `: Prometheus scrapes http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`;
    results.push(await checkListen('metrics listener', metrics.listen, 'BRIDGE_METRICS_ADDR', running, scrapes));
  }
  if (metrics.otlp) results.push(pass('metrics export', `to ${metrics.otlp.url} (${metrics.otlp.protocol}) every ${metrics.otlp.intervalMs / 1000} s`));
  if (!results.length)
    results.push(
      optional(
        subject,
        'recorded but neither served nor exported',
        'Set BRIDGE_WEB_ADDR or BRIDGE_METRICS_ADDR for Prometheus, or OTEL_EXPORTER_OTLP_ENDPOINT for a collector.',
      ),
    );
  return results;
}
