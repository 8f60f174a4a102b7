/**
 * Work of one key (a chat) in order, different keys side by side: a chat's messages reach the
 * bridge in the order Discord sent them, while another chat's never wait behind them.
 */
export class Serial {
  private readonly tails = new Map<string, Promise<void>>();

  run(key: string, work: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves once everything queued so far has run. */
  async settled(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}
