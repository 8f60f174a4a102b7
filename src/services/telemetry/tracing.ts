import { trace } from '@opentelemetry/api';
import { getBooleanFromEnv } from '@opentelemetry/core';
import type { Log } from '../../kernel/log/logger.ts';
import { OTLP_PROTOCOLS, type OtlpProtocol } from './metrics-settings.ts';
import { telemetryResource, type ServiceName } from './resource.ts';
import { sendWithin } from './send-within.ts';

/** The process's tracing: where its spans go, and how they are sent before it ends. */
export interface Tracing {
  /** Where spans go (`http/json to http://collector:4318/v1/traces`), or undefined when none are exported. */
  readonly exporting: string | undefined;
  /** Sends the spans ended so far (a drain's end). */
  flush(): Promise<void>;
  /** Sends what is left and stops; after it, spans go nowhere. */
  shutdown(): Promise<void>;
}

const NOT_TRACING: Tracing = { exporting: undefined, flush: async () => {}, shutdown: async () => {} };

/**
 * Exports this process's spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set and OTEL_SDK_DISABLED is not: the SDK's tracer
 * provider becomes the global one, which the engine's spans (AgentSpans) are made by. The
 * SDK reads the rest of the OTEL_* variables itself (sampler, batching, headers, timeout,
 * resource). Otherwise nothing is registered, and every span is the API's no-op, and the SDK
 * and its exporters are not even loaded.
 */
export async function startTracing(service: ServiceName, log: Log): Promise<Tracing> {
  // The process's own: the SDK reads its variables there too.
  const env = process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint || getBooleanFromEnv('OTEL_SDK_DISABLED') || env.OTEL_TRACES_EXPORTER?.trim() === 'none') return NOT_TRACING;
  const chosen = traceProtocol(env);
  if ('problem' in chosen) {
    log.warn(chosen.problem);
    return NOT_TRACING;
  }
  const { otlpTracerProvider } = await import('./trace-exporter.ts');
  const provider = otlpTracerProvider(chosen.protocol, telemetryResource(service), log.child({ telemetry: 'traces' }));
  // One global provider a process: were one there already (a library's), the spans would go to it, not to OTLP.
  if (!trace.setGlobalTracerProvider(provider)) {
    log.warn('another tracer provider is registered in this process: no trace is exported over OTLP');
    void provider.shutdown();
    return NOT_TRACING;
  }
  let stopped: Promise<void> | undefined;
  return {
    exporting: `${chosen.protocol} to ${withoutCredentials(endpoint)}`,
    flush: () => sendWithin(provider.forceFlush(), 'sending traces', log),
    shutdown: () =>
      (stopped ??= sendWithin(provider.shutdown(), 'sending the last traces', log).finally(() => {
        trace.disable();
      })),
  };
}

/**
 * The protocol OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL) names
 * (`http/protobuf`, the specification's default, when none),
 * which the OTLP exporters leave to whoever picks one; `problem` when it is none the bridge
 * speaks (grpc): then no span is sent, and the log says why.
 */
export function traceProtocol(env: Record<string, string | undefined>): { protocol: OtlpProtocol } | { problem: string } {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const written = env[variable]?.trim() || 'http/protobuf';
  const known = OTLP_PROTOCOLS.find((protocol) => protocol === written);
  if (known) return { protocol: known };
  return { problem: `${variable}=${written} is not a protocol the bridge exports traces in (${OTLP_PROTOCOLS.join(' or ')}): no trace is exported` };
}

/** An endpoint as the log may show it: a password or user in its URL is left out. */
function withoutCredentials(endpoint: string): string {
  if (!URL.canParse(endpoint)) return endpoint;
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.toString();
}
