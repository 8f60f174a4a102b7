import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultResource, detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { REPO_ROOT } from '../../kernel/repo-root.ts';

/** What this process is among the bridge's: the bridge itself, or a worker. */
export type ServiceName = 'jsonl-bridge' | 'jsonl-bridge-worker';

/** The bridge's version, as its package names it. */
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** One per process, shared by its metrics and its spans: two workers on one machine are two instances. */
const INSTANCE_ID = randomUUID();

/**
 * Who exports, metrics and spans alike: the service and this process's instance id, with
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over them (an operator's names win, as the
 * standard says). Nothing of the host or the process's command line.
 */
export function telemetryResource(service: ServiceName): Resource {
  return defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: service, [ATTR_SERVICE_VERSION]: VERSION, 'service.instance.id': INSTANCE_ID }))
    .merge(detectResources({ detectors: [envDetector] }));
}
