import { BRIDGE_ENV_PREFIXES } from '../known-transports.ts';

/**
 * Values that must never appear in a log line: the bot's token, API tokens, passwords, and
 * the MCP endpoint's per-session secrets while they live. Redacted wherever they appear in a
 * line (a message, a field, an error's stack), not only in fields known to hold them.
 */
export class Secrets {
  private readonly values = new Set<string>();

  /**
   * Values shorter than this are not redacted: only configured secrets come here (keys, tokens,
   * passwords), and one of five characters or more (a test's `sk-x1`) is redacted, but below
   * that a value is as likely a word or a number an answer holds (`test`, `1234`) and redacting
   * it would garble every line; no provider issues keys that short.
   */
  static readonly MIN_LENGTH = 5;

  add(value: string | undefined): void {
    if (!value || value.length < Secrets.MIN_LENGTH) return;
    for (const form of forms(value)) this.values.add(form);
  }

  remove(value: string): void {
    for (const form of forms(value)) this.values.delete(form);
  }

  redact(text: string): string {
    if (!this.values.size) return text; // every line a CLI prints comes here: with nothing to look for, not even a loop
    let out = text;
    for (const value of this.values) if (out.includes(value)) out = out.replaceAll(value, '[redacted]');
    return out;
  }
}

/**
 * The ways a value is written where it may show: as it is, escaped in a JSON line (a password
 * with a quote in it), and percent-encoded in a URL (a token's colon as %3A).
 */
function forms(value: string): string[] {
  return [...new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])];
}

/**
 * The secrets in the environment, known by their variables' names, for what is printed before
 * the configuration is read (or when reading it fails): the bot token, API tokens, keys,
 * passwords, and the password in any URL.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    // The collector's credentials: each header's value (`Authorization=Bearer …,x-team=…`), as the OTLP exporter sends it.
    if (value && /^OTEL_EXPORTER_OTLP_(\w+_)?HEADERS$/.test(name)) values.push(...otlpHeaderValues(value));
    if (!value || !BRIDGE_ENV_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    if (/TOKEN|KEY|SECRET|PASSWORD/.test(name) && !/_FILE$|_TLS_KEY$/.test(name))
      values.push(value, ...value.split(',').map((pair) => pair.slice(pair.indexOf('=') + 1).trim()));
    // A URL's password (BRIDGE_REDIS_URL, a Bot API root behind a proxy that wants one).
    if (URL.canParse(value)) {
      const password = new URL(value).password;
      if (password) values.push(password, decodeURIComponent(password));
    }
  }
  return values;
}

/** The values of OTEL_EXPORTER_OTLP_HEADERS (`name=value` pairs, comma-separated, values percent-encoded), as written and decoded. */
export function otlpHeaderValues(list: string): string[] {
  return list.split(',').flatMap((pair) => {
    const value = pair.slice(pair.indexOf('=') + 1).trim();
    if (!value || pair.indexOf('=') < 0) return [];
    let decoded = value;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: as written.
    }
    return [...new Set([value, decoded, ...decoded.split(/\s+/).filter((word) => word.length >= 8)])];
  });
}
