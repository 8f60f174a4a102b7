import { metrics } from '@opentelemetry/api';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { Log } from '../../kernel/log/logger.ts';
import type { MetricsConfig } from './metrics-settings.ts';
import { telemetryResource, type ServiceName } from './resource.ts';
import { sendWithin } from './send-within.ts';

/** What a scrape answers with, in Prometheus's text format (0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The OpenTelemetry SDK for metrics, installed as the process's meter provider (the
 * instruments of `src/services/telemetry` record through the API, as any library would): a pull reader
 * for `/metrics`, and a periodic OTLP exporter when an endpoint is set. Off (OTEL_SDK_DISABLED),
 * nothing is installed and every instrument is the API's no-op. The OTLP exporter's libraries
 * are loaded only when it is used.
 */
export class MetricsSdk {
  private constructor(
    private readonly provider: MeterProvider | undefined,
    private readonly pull: PrometheusExporter | undefined,
    /** Where metrics are pushed, for the start-up line. */
    readonly pushedTo: string | undefined,
  ) {}

  static async start(config: MetricsConfig, service: ServiceName): Promise<MetricsSdk> {
    if (config.disabled) return new MetricsSdk(undefined, undefined, undefined);
    const pull = new PrometheusExporter({ preventServerStart: true });
    const readers: MetricReader[] = [pull];
    if (config.otlp) {
      const { otlpExporter } = await import('./metrics-otlp.ts');
      readers.push(
        new PeriodicExportingMetricReader({
          exporter: otlpExporter(config.otlp),
          exportIntervalMillis: config.otlp.intervalMs,
          exportTimeoutMillis: Math.min(config.otlp.timeoutMs, config.otlp.intervalMs),
        }),
      );
    }
    const provider = new MeterProvider({ resource: telemetryResource(service), readers });
    // One provider a process: a second start (tests) replaces the first's.
    metrics.disable();
    metrics.setGlobalMeterProvider(provider);
    return new MetricsSdk(provider, pull, config.otlp && `${config.otlp.url} (${config.otlp.protocol})`);
  }

  get enabled(): boolean {
    return this.provider !== undefined;
  }

  /** Every instrument's current values, as Prometheus text; undefined when metrics are off. */
  async scrape(): Promise<string | undefined> {
    if (!this.pull) return undefined;
    const { resourceMetrics } = await this.pull.collect();
    return new PrometheusSerializer().serialize(resourceMetrics);
  }

  /** Pushes what is left (the last interval's) and stops, within SEND_WITHIN_MS: the drain's last step. */
  async shutdown(log: Log): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    // The periodic reader's shutdown exports once more: a flush before it would send the interval twice.
    await sendWithin(provider.shutdown(), 'exporting the last metrics', log);
    if (metrics.getMeterProvider() === provider) metrics.disable();
  }
}
