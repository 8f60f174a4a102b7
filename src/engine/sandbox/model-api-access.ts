/*
 * How one CLI reaches its model API, as its adapter says: which variables hold its credential
 * and in which header it sends each, where the API is, and how the CLI is pointed at another
 * base URL. In its walls the bridge holds the credential, points the CLI at its credential
 * proxy, and gives it a placeholder.
 */

import type { ModelApiAccess } from './wall-scope.ts';

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
