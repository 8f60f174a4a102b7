import type { ProxyWatch } from './credential-proxy.ts';
import type { EgressPolicy, HostVerdict } from './egress-decision.ts';
import type { HostRule } from './host-rules.ts';
import { modelApiRules } from './model-hosts.ts';
import type { ProxyMetering } from './proxy-metering.ts';
import type { CliInWalls, WallScope } from './wall-scope.ts';

/**
 * What one sandbox may reach: the model APIs, BRIDGE_SANDBOX_ALLOW and its chat's own list
 * (internal addresses only where the operator named them); each refused host told once.
 */
export function egressPolicy(
  lists: { allow: HostRule[]; internal: HostRule[] },
  scope: WallScope,
  clis: CliInWalls[],
  env: Record<string, string | undefined>,
): EgressPolicy {
  const fixed = [...modelApiRules(clis, env), ...lists.allow];
  const told = new Set<string>();
  // Connections to one host at one address while a person is asked about it wait for the same
  // question, withdrawn once every one of them has gone.
  type Open = { verdict: Promise<HostVerdict>; waiting: number; withdraw: AbortController };
  const asking = new Map<string, Open>();
  const wait = (open: Open, gone: AbortSignal) => {
    open.waiting++;
    gone.addEventListener(
      'abort',
      () => {
        if (--open.waiting === 0) open.withdraw.abort();
      },
      { once: true },
    );
    return open.verdict;
  };
  return {
    rules: () => [...fixed, ...(scope.egress?.allow?.() ?? [])],
    operator: [...fixed, ...lists.internal],
    ask(host, port) {
      const question = scope.egress?.ask?.(host, port);
      if (!question) return undefined;
      return (address, gone) => {
        const key = `${host}:${port}@${address}`;
        const open = asking.get(key);
        if (open) return wait(open, gone);
        const withdraw = new AbortController();
        const opened = { verdict: question(address, withdraw.signal).finally(() => asking.delete(key)), waiting: 0, withdraw };
        asking.set(key, opened);
        return wait(opened, gone);
      };
    },
    onBlocked(host, why) {
      if (told.has(host)) return;
      told.add(host);
      scope.egress?.onBlocked?.(host, why);
    },
  };
}

/** What a sandbox's credential proxy tells: each refused call once (as a refused host is), each metered one. */
export function proxyWatch(scope: WallScope, host: string, metering: ProxyMetering | undefined): ProxyWatch {
  const told = new Set<string>();
  return {
    refused(call, why) {
      if (told.has(call)) return;
      told.add(call);
      scope.egress?.onBlocked?.(`${host} ${call}`, why);
    },
    metered: (event) => scope.onMetered?.(event),
    metering,
  };
}
