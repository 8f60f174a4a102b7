import { parseHostRule, type HostRule } from './host-rules.ts';
import type { ModelApiAccess } from './wall-scope.ts';

type CallsOut = { modelApi?: Pick<ModelApiAccess, 'upstream'>; hosts?: string[] };

/**
 * The model API hosts every sandbox may reach, besides BRIDGE_SANDBOX_ALLOW, each on its own
 * port only: each CLI's API where its adapter says it is (`walls.modelApi.upstream`), the
 * hosts it calls besides (`walls.hosts`), and where the environment points it instead (a
 * gateway, a mock). A base URL's address (http://127.0.0.1:18999) is the operator's naming
 * it, so it is reached there even where internal, and on no other port.
 */
export function modelApiRules(clis: readonly CallsOut[], env: Record<string, string | undefined>): HostRule[] {
  const called = clis.flatMap((cli) => (cli.hosts ?? []).map((host) => `https://${host}`));
  const urls = clis.flatMap(({ modelApi }) => [modelApi?.upstream.default, env[modelApi?.upstream.variable ?? '']]).concat(called);
  // A variable unset, or not a URL: the CLI will say so itself.
  const reached = urls.flatMap((url) => (url && URL.canParse(url) ? [new URL(url)] : []));
  const hosts = new Set(reached.map(({ hostname, port, protocol }) => `${hostname}:${port || (protocol === 'https:' ? 443 : 80)}`));
  return [...hosts].map((host) => parseHostRule(host, 'model API'));
}
