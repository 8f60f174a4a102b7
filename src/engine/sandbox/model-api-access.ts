/*
 * How one CLI reaches its model API, as its adapter says: which variables hold its credential
 * and in which header it sends each, where the API is, and how the CLI is pointed at another
 * base URL. In its walls the bridge holds the credential, points the CLI at its credential
 * proxy, and gives it a placeholder.
 */

/** One credential a CLI takes from its environment, and the header it sends it in. */
export interface CredentialSpec {
  /** The variable holding it: ANTHROPIC_API_KEY, CODEX_API_KEY, CLAUDE_CODE_OAUTH_TOKEN. */
  variable: string;
  /** The header it goes in, lower case: `x-api-key`, `authorization`. */
  header: string;
  /** Written before it in the header: `Bearer`. */
  scheme?: string;
}

export interface ModelApiAccess {
  /** In the order the CLI prefers them: of two sent in one header, the first is held, the other left out. */
  credentials: CredentialSpec[];
  /** Where the API is: the variable naming its base URL (read by the bridge), else `default`; neither: the CLI does not use this API as it is set. */
  upstream: { variable?: string; default?: string };
  /**
   * How the CLI is told the proxy's URL: a variable it reads, or arguments put before its own
   * (`{modelApiUrl}` in them is the proxy's URL inside).
   */
  pointAt: { env?: string; args?: string[] };
  /** The calls it makes there (`POST /v1/messages`, see model-routes.ts): the credential proxy sends on no other. */
  routes: string[];
}

/** What a CLI in walls holds where its credential was. */
export const PLACEHOLDER_KEY = 'sk-held-by-the-bridge';

/**
 * Model API credentials of every CLI the bridge knows: none reaches a sandbox but as the
 * placeholder, whichever CLI runs there (the bridge's environment passes through to all).
 */
export const MODEL_CREDENTIAL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'CODEX_API_KEY',
  'FACTORY_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
];

/** Where a CLI's model API is, as the bridge reads it: the variable naming its base URL, else the adapter's default (none: not used). */
export function modelApiBase(access: Pick<ModelApiAccess, 'upstream'>, env: Record<string, string | undefined>): string | undefined {
  const { variable } = access.upstream;
  return (variable && env[variable]) || access.upstream.default;
}

/**
 * Every variable that holds a model key these CLIs may take: the list above and each one's
 * adapter's credentials. Their values are redacted from what the CLI prints and from the logs.
 */
export function credentialVariables(accesses: readonly (ModelApiAccess | undefined)[]): string[] {
  return [...new Set([...MODEL_CREDENTIAL_VARIABLES, ...accesses.flatMap((access) => access?.credentials.map((spec) => spec.variable) ?? [])])];
}
