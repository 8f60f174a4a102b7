import { ConfigError } from '../../kernel/errors/config-error.ts';
import { hostPort } from '../../kernel/settings/listen-address.ts';

/** Where the bridge's MCP endpoint listens, and the URL CLIs reach it at (workers on other machines need one they can reach). */
export interface McpListen {
  host: string;
  /** 0: a free port. */
  port: number;
  /** Default: `http://<host>:<port>/mcp`. */
  publicUrl?: string;
}

/** BRIDGE_MCP_LISTEN and BRIDGE_MCP_URL; by default a free port on 127.0.0.1. */
export function mcpListen(env: NodeJS.ProcessEnv): McpListen {
  const listen = env.BRIDGE_MCP_LISTEN?.trim();
  const url = env.BRIDGE_MCP_URL?.trim();
  const where: McpListen = { host: '127.0.0.1', port: 0 };
  if (listen) Object.assign(where, hostPort('BRIDGE_MCP_LISTEN', listen, '0.0.0.0:8765'));
  if (url) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new ConfigError(`BRIDGE_MCP_URL: expected the http(s) URL workers reach the bridge's tools at, like http://bridge.internal:8765/mcp, got "${url}"`);
    where.publicUrl = url;
  }
  return where;
}
