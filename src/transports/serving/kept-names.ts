/**
 * Names asked of a chat app (people's, conversations'), each kept a while, as people rename
 * themselves now and then; the newest `max` are kept. A look-up that fails leaves the name out.
 */
export class KeptNames {
  private readonly names = new Map<string, { name: string | undefined; until: number }>();

  constructor(
    private readonly keptMs = 10 * 60_000,
    private readonly max = 2000,
  ) {}

  async of(key: string, ask: () => Promise<string | undefined>): Promise<string | undefined> {
    const now = Date.now();
    const held = this.names.get(key);
    if (held && held.until > now) return held.name;
    const name = await ask().catch(() => undefined);
    this.names.delete(key);
    this.names.set(key, { name, until: now + this.keptMs });
    if (this.names.size > this.max) this.names.delete(this.names.keys().next().value!);
    return name;
  }
}
