import { randomUUID } from 'node:crypto';
import { detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** What the bridge and its workers are called in a collector, unless OTEL_SERVICE_NAME says otherwise. */
export type ServiceName = 'jsonl-bridge' | 'jsonl-bridge-worker';

/**
 * Who sends the spans: the service (OTEL_SERVICE_NAME over the default) and this process's
 * own instance id, with OTEL_RESOURCE_ATTRIBUTES over both (the SDK's env detector reads them).
 * Nothing about the host or the process's command line: those are not asked for.
 */
export function traceResource(service: ServiceName): Resource {
  return resourceFromAttributes({ [ATTR_SERVICE_NAME]: service, 'service.instance.id': randomUUID() }).merge(detectResources({ detectors: [envDetector] }));
}
