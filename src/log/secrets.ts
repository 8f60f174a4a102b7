/**
 * Values that must never appear in a log line: the bot's token, API tokens, passwords, and
 * the MCP endpoint's per-session secrets while they live. Redacted wherever they appear in a
 * line (a message, a field, an error's stack), not only in fields known to hold them.
 */
export class Secrets {
  private readonly values = new Set<string>();

  /** Values shorter than this are not secrets worth the name, and would redact ordinary words. */
  static readonly MIN_LENGTH = 8;

  add(value: string | undefined): void {
    if (!value || value.length < Secrets.MIN_LENGTH) return;
    this.values.add(value);
    // A JSON line holds the value escaped: a password with a quote in it is found too.
    this.values.add(JSON.stringify(value).slice(1, -1));
  }

  remove(value: string): void {
    this.values.delete(value);
    this.values.delete(JSON.stringify(value).slice(1, -1));
  }

  redact(text: string): string {
    let out = text;
    for (const value of this.values) if (out.includes(value)) out = out.replaceAll(value, '[redacted]');
    return out;
  }
}
