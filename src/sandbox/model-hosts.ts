import { parseHostRule, type HostRule } from './host-rules.ts';
import type { ModelApiAccess } from './model-api-access.ts';

/** What a CLI's adapter says of where it calls: its model API (`walls.modelApi.upstream`) and the hosts it calls besides (`walls.hosts`). */
export interface CallsOut {
  modelApi?: Pick<ModelApiAccess, 'upstream'>;
  hosts?: string[];
}

/**
 * The model API hosts every sandbox may reach, besides BRIDGE_SANDBOX_ALLOW, each on its own
 * port only: each CLI's API where its adapter says it is by default, the hosts it calls
 * besides, and where the environment points it instead (a gateway, a mock). A base URL's
 * address (http://127.0.0.1:18999) is the operator's naming it, so it is reached there even
 * where internal, and on no other port.
 */
export function modelApiRules(clis: readonly CallsOut[], env: Record<string, string | undefined>): HostRule[] {
  const urls = clis.flatMap(({ modelApi, hosts = [] }) => [
    ...hosts.map((host) => `https://${host}`),
    ...(modelApi ? [modelApi.upstream.default, env[modelApi.upstream.variable ?? ''] ?? ''] : []),
  ]);
  const hosts = new Set<string>();
  for (const url of urls) {
    try {
      const { hostname, port, protocol } = new URL(url);
      hosts.add(`${hostname}:${port || (protocol === 'https:' ? 443 : 80)}`);
    } catch {
      // unset, or not a URL: the CLI will say so itself
    }
  }
  return [...hosts].map((host) => parseHostRule(host, 'model API'));
}
