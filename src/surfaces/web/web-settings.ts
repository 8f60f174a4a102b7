import { ConfigError } from '../../kernel/errors/config-error.ts';
import { hostPort, tlsFiles } from '../../kernel/settings/listen-address.ts';

/** The web server (BRIDGE_WEB_ADDR): the dashboard, the chat page, and webhooks. */
export interface WebConfig {
  host: string;
  /** 0: a free port (tests). */
  port: number;
  /** Where people reach it (BRIDGE_WEB_URL), without a trailing slash: links and the Mini App button use it. */
  url: string;
  tls?: { cert: Buffer; key: Buffer };
}

export async function webConfig(env: NodeJS.ProcessEnv): Promise<WebConfig | undefined> {
  const addr = env.BRIDGE_WEB_ADDR?.trim();
  if (!addr) {
    if (env.BRIDGE_WEB_URL?.trim()) throw new ConfigError('BRIDGE_WEB_URL: set BRIDGE_WEB_ADDR too (host:port the web server listens on)');
    return undefined;
  }
  const where = hostPort('BRIDGE_WEB_ADDR', addr, '127.0.0.1:8080');
  const tls = await tlsFiles(env, 'BRIDGE_WEB');
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  const url = (env.BRIDGE_WEB_URL?.trim() || `${tls ? 'https' : 'http'}://${host}:${where.port}`).replace(/\/+$/, '');
  if (!URL.canParse(url))
    throw new ConfigError(`BRIDGE_WEB_URL: expected the address people reach the web server at, like https://bridge.example.com, got "${url}"`);
  if (!/^https?:$/.test(new URL(url).protocol)) throw new ConfigError(`BRIDGE_WEB_URL: expected an http(s) address, got "${url}"`);
  return { ...where, url, ...(tls ? { tls } : {}) };
}
