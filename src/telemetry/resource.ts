import { randomUUID } from 'node:crypto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/** What this process is among the bridge's: the bridge itself, or a worker. */
export type ServiceName = 'jsonl-bridge' | 'jsonl-bridge-worker';

/** One per process: two workers on one machine are two instances. */
const INSTANCE_ID = randomUUID();

/**
 * Who exports: the service and this process's instance id, with OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES over them (an operator's names win, as the standard says).
 */
export function telemetryResource(service: ServiceName, version: string): Resource {
  return defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: service, [ATTR_SERVICE_VERSION]: version, 'service.instance.id': INSTANCE_ID }))
    .merge(detectResources({ detectors: [envDetector] }));
}
