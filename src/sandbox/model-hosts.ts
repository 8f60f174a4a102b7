import { parseHostRule, type HostRule } from './host-rules.ts';

/** The model APIs the CLIs call by default, over HTTPS: reached by every sandbox, as their CLI cannot work without. */
const MODEL_API_HOSTS = ['api.anthropic.com', 'api.openai.com', 'chatgpt.com', 'api.factory.ai', 'app.factory.ai'];

/** Where the environment points a CLI's model API instead (a gateway, a mock): reached too. */
const BASE_URL_VARIABLES = ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'FACTORY_API_BASE_URL'];

/**
 * The model API hosts every sandbox may reach, besides BRIDGE_SANDBOX_ALLOW: each on its own
 * port only. A base URL's address (http://127.0.0.1:18999) is the operator's naming it, so it
 * is reached there even where internal, and on no other port.
 */
export function modelApiRules(env: Record<string, string | undefined>): HostRule[] {
  const hosts = MODEL_API_HOSTS.map((host) => `${host}:443`);
  for (const name of BASE_URL_VARIABLES) {
    try {
      const url = new URL(env[name] ?? '');
      hosts.push(`${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`);
    } catch {
      // unset, or not a URL: the CLI will say so itself
    }
  }
  return hosts.map((host) => parseHostRule(host, 'model API'));
}
