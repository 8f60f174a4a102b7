import { join } from 'node:path';
import type { Adapter } from '../../engine/adapters/load.ts';
import { credentialVariables } from '../../engine/sandbox/model-api-access.ts';
import { warn, type CheckResult } from '../../kernel/ports/check-result.ts';

/** A field named for a secret holding a literal long enough to be one: `"apiKey": "sk-…"`, `api_key = "…"`, `token: …`. */
const SECRET_FIELD = /["']?([\w.-]*(?:api[_-]?key|token|secret|password)[\w.-]*)["']?\s*[:=]\s*["']?([^"'\s,{}]{16,})/gi;
/** A value that names where the secret is rather than holding it: `{env:NAME}`, `{file:…}`, `$NAME`, `${NAME}`, `env:NAME`. */
const REFERENCE = /^(\{env:|\{file:|\$|env:)/;
/** A variable's value shorter than this is no key (and would match by chance). */
const MIN_KEY_CHARS = 8;

/**
 * What in a configuration file's text holds a key: each field named for a secret whose value
 * is a literal, and each of `variables` whose value (a model key the bridge holds) is written
 * there as it is.
 */
export function keysIn(text: string, env: Record<string, string | undefined>, variables: readonly string[]): string[] {
  const found = new Set<string>();
  for (const [, field, value] of text.matchAll(SECRET_FIELD)) if (!REFERENCE.test(value!)) found.add(`"${field}"`);
  for (const name of variables) {
    const value = env[name];
    if (value && value.length >= MIN_KEY_CHARS && text.includes(value)) found.add(`${name}'s value`);
  }
  return [...found];
}

/**
 * With the walls on, a CLI's configuration is the operator's, shown to its agent read-only: a
 * key written in it is the agent's to read, where the credential proxy would have held it. Each
 * file its manifest names as its configuration (`walls.config`) is read as its user would
 * (`read`, in the `home` the walls show it from); a warning names the files holding one.
 */
export async function checkConfigKeys(
  adapter: Adapter,
  env: Record<string, string | undefined>,
  home: string,
  read: (path: string) => Promise<string | undefined>,
): Promise<CheckResult | undefined> {
  const variables = credentialVariables([adapter.walls.modelApi]);
  const holding: string[] = [];
  for (const path of adapter.walls.config) {
    if (path.endsWith('/')) continue;
    const text = await read(join(home, path));
    const keys = text === undefined ? [] : keysIn(text, env, variables);
    if (keys.length) holding.push(`~/${path} (${keys.join(', ')})`);
  }
  if (!holding.length) return undefined;
  return warn(
    `${adapter.name} configuration`,
    `${holding.join('; ')} ${holding.length === 1 ? 'holds' : 'hold'} what looks like a key, which its agent reads inside the walls`,
    `Take the key out of the file: write a reference to the variable it is in instead where the CLI reads one (such as {env:NAME}), and set that variable where the bridge starts, so the credential proxy holds it and the agent sees a placeholder (docs/sandbox.md).`,
  );
}
