import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/** A span's place in its trace as W3C Trace Context writes it: what a queued run carries to its worker. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

const propagator = new W3CTraceContextPropagator();

/** The carrier for `context`'s span, or undefined when it has none (not traced, or not sampled and not recorded). */
export function carrierOf(context: Context): TraceCarrier | undefined {
  if (!trace.getSpanContext(context)) return undefined;
  const carrier: Record<string, string> = {};
  propagator.inject(context, carrier, defaultTextMapSetter);
  return carrier.traceparent ? { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) } : undefined;
}

/** The context a carrier names, for spans that join its trace; undefined without one. */
export function contextOf(carrier: TraceCarrier | undefined): Context | undefined {
  if (!carrier) return undefined;
  const context = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
  return trace.getSpanContext(context) ? context : undefined;
}
