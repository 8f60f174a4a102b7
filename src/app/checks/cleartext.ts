import { isLoopback } from '../../kernel/http/loopback.ts';
import type { BridgeConfig } from '../config.ts';

/** Something the bridge listens on, as the operator configured it. */
export interface Listener {
  /** What it serves, for a person: "the agents' tools (MCP)". */
  what: string;
  /** The variable that puts it there. */
  variable: string;
  host: string;
  port: number;
  tls: boolean;
  /** How to have it speak TLS, or keep it close. */
  advice: string;
}

/** A warning line for each listener that speaks cleartext beyond loopback. */
export function cleartextWarnings(listeners: readonly Listener[]): string[] {
  return listeners
    .filter((listener) => !listener.tls && !isLoopback(listener.host))
    .map(
      (listener) =>
        `${listener.variable}=${address(listener)}: ${listener.what}, served beyond loopback without TLS: what crosses the network (secrets included) can be read on the way. ${listener.advice}`,
    );
}

const address = ({ host, port }: Listener) => (host.includes(':') ? `[${host.replace(/^\[(.*)\]$/, '$1')}]:${port}` : `${host}:${port}`);

/** What the bridge listens on: its tools for the CLIs, and the SubagentService and web server when configured. */
export function bridgeListeners(config: Pick<BridgeConfig, 'mcp' | 'api' | 'web'>): Listener[] {
  const listeners: Listener[] = [
    {
      what: "the agents' tools (MCP)",
      variable: 'BRIDGE_MCP_LISTEN',
      ...hostPort(config.mcp),
      advice: 'Keep it on 127.0.0.1, or reach it only over a network you trust or through a TLS proxy (BRIDGE_MCP_URL).',
    },
  ];
  if (config.api)
    listeners.push({
      what: 'the SubagentService API',
      variable: 'BRIDGE_API_ADDR',
      ...hostPort(config.api),
      advice: 'Set BRIDGE_API_TLS_CERT and BRIDGE_API_TLS_KEY, or listen on 127.0.0.1.',
    });
  // Behind a proxy that speaks HTTPS (BRIDGE_WEB_URL https://…), the proxy is the TLS; the hop to it is the operator's to keep close.
  if (config.web && !config.web.url.startsWith('https:'))
    listeners.push({
      what: 'the dashboard, chat page and webhooks',
      variable: 'BRIDGE_WEB_ADDR',
      ...hostPort(config.web),
      advice: 'Set BRIDGE_WEB_TLS_CERT and BRIDGE_WEB_TLS_KEY, serve it behind an HTTPS proxy (BRIDGE_WEB_URL=https://…), or listen on 127.0.0.1.',
    });
  return listeners;
}

const hostPort = ({ host, port, tls }: { host: string; port: number; tls?: unknown }) => ({ host, port, tls: Boolean(tls) });
