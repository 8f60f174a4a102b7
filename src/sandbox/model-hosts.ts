import { parseHostRule, type HostRule } from './host-rules.ts';

/** The model APIs the CLIs call by default: reached by every sandbox, as their CLI cannot work without. */
const MODEL_API_HOSTS = ['api.anthropic.com', 'api.openai.com', 'chatgpt.com', 'api.factory.ai', 'app.factory.ai'];

/** Where the environment points a CLI's model API instead (a gateway, a mock): reached too. */
const BASE_URL_VARIABLES = ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'FACTORY_API_BASE_URL'];

/** The model API hosts every sandbox may reach, besides BRIDGE_SANDBOX_ALLOW. */
export function modelApiRules(env: Record<string, string | undefined>): HostRule[] {
  const hosts = [...MODEL_API_HOSTS];
  for (const name of BASE_URL_VARIABLES) {
    try {
      if (env[name]) hosts.push(new URL(env[name]).hostname);
    } catch {
      // not a URL: the CLI will say so itself
    }
  }
  return hosts.map((host) => parseHostRule(host, 'model API'));
}
